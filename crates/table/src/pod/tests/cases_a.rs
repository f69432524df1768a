//! Pod STATUS/READY/RESTARTS cases P01–P31 of kubectl-columns.md §3.5. Test-only.

use super::*;

/// (id, fixture, READY, STATUS, RESTARTS).
pub(super) fn cases() -> Vec<(&'static str, Pod, &'static str, &'static str, &'static str)> {
    let sc = |n| (n, true);
    let ic = |n| (n, false);
    vec![
        (
            "P01",
            pod().st(vec![run_r("app")]).cond("Ready", "True", ""),
            "1/1",
            "Running",
            "0",
        ),
        (
            "P02",
            pod()
                .phase("Pending")
                .cond("PodScheduled", "False", "Unschedulable"),
            "0/1",
            "Pending",
            "0",
        ),
        (
            "P03",
            pod().phase("Pending").st(vec![wait("app", "ContainerCreating")]),
            "0/1",
            "ContainerCreating",
            "0",
        ),
        (
            "P04",
            pod().st(vec![rc(wait("app", "CrashLoopBackOff"), 5, Some(320))]),
            "0/1",
            "CrashLoopBackOff",
            "5 (5m20s ago)",
        ),
        (
            "P05",
            pod().phase("Pending").st(vec![wait("app", "ImagePullBackOff")]),
            "0/1",
            "ImagePullBackOff",
            "0",
        ),
        (
            "P06",
            pod()
                .phase("Pending")
                .init(&[ic("i1"), ic("i2")])
                .init_st(vec![run("i1"), wait("i2", "PodInitializing")])
                .st(vec![wait("app", "PodInitializing")]),
            "0/1",
            "Init:0/2",
            "0",
        ),
        (
            "P07",
            pod()
                .phase("Pending")
                .init(&[ic("i1"), ic("i2")])
                .init_st(vec![term("i1", 0, "Completed", 0), run("i2")])
                .st(vec![wait("app", "PodInitializing")]),
            "0/1",
            "Init:1/2",
            "0",
        ),
        (
            "P08",
            pod().phase("Pending").init(&[ic("i1")]).init_st(vec![rc(
                wait("i1", "CrashLoopBackOff"),
                3,
                Some(45),
            )]),
            "0/1",
            "Init:CrashLoopBackOff",
            "3 (45s ago)",
        ),
        (
            "P09",
            pod()
                .phase("Failed")
                .init(&[ic("i1")])
                .init_st(vec![term("i1", 1, "Error", 0)]),
            "0/1",
            "Init:Error",
            "0",
        ),
        (
            "P10",
            pod().init(&[ic("i1")]).init_st(vec![term("i1", 137, "", 9)]),
            "0/1",
            "Init:Signal:9",
            "0",
        ),
        (
            "P11",
            pod().init(&[ic("i1")]).init_st(vec![term("i1", 2, "", 0)]),
            "0/1",
            "Init:ExitCode:2",
            "0",
        ),
        (
            "P12",
            pod()
                .phase("Pending")
                .init(&[ic("i1")])
                .init_st(vec![wait("i1", "PodInitializing")]),
            "0/1",
            "Init:0/1",
            "0",
        ),
        (
            "P13",
            pod().phase("Failed").st(vec![term("app", 143, "", 15)]),
            "0/1",
            "Signal:15",
            "0",
        ),
        (
            "P14",
            pod().phase("Failed").st(vec![term("app", 3, "", 0)]),
            "0/1",
            "ExitCode:3",
            "0",
        ),
        (
            "P15",
            pod().phase("Succeeded").st(vec![term("app", 0, "Completed", 0)]),
            "0/1",
            "Completed",
            "0",
        ),
        (
            "P16",
            pod().phase("Failed").st(vec![term("app", 1, "Error", 0)]),
            "0/1",
            "Error",
            "0",
        ),
        (
            "P17",
            pod().st(vec![rc(term("app", 137, "OOMKilled", 0), 1, Some(100))]),
            "0/1",
            "OOMKilled",
            "1 (100s ago)",
        ),
        (
            "P18",
            pod()
                .apps(&["a", "b"])
                .st(vec![term("a", 0, "Completed", 0), run_r("b")])
                .cond("Ready", "False", ""),
            "1/2",
            "NotReady",
            "0",
        ),
        (
            "P19",
            pod()
                .apps(&["a", "b"])
                .st(vec![term("a", 0, "Completed", 0), run_r("b")])
                .cond("Ready", "True", ""),
            "1/2",
            "Running",
            "0",
        ),
        (
            "P20",
            pod()
                .apps(&["a", "b"])
                .st(vec![run("a"), term("b", 0, "Completed", 0)])
                .cond("Ready", "False", ""),
            "0/2",
            "Completed",
            "0",
        ),
        (
            "P21",
            pod().st(vec![run_r("app")]).deleting(),
            "1/1",
            "Terminating",
            "0",
        ),
        (
            "P22",
            pod()
                .phase("Succeeded")
                .st(vec![term("app", 0, "Completed", 0)])
                .deleting(),
            "0/1",
            "Completed",
            "0",
        ),
        (
            "P23",
            pod().reason("NodeLost").st(vec![run_r("app")]).deleting(),
            "1/1",
            "Unknown",
            "0",
        ),
        (
            "P24",
            pod()
                .phase("Pending")
                .cond("PodScheduled", "False", "SchedulingGated"),
            "0/1",
            "SchedulingGated",
            "0",
        ),
        (
            "P25",
            pod().phase("Failed").reason("Evicted"),
            "0/1",
            "Evicted",
            "0",
        ),
        (
            "P26",
            pod()
                .phase("Failed")
                .reason("Evicted")
                .st(vec![term("app", 137, "ContainerStatusUnknown", 0)]),
            "0/1",
            "ContainerStatusUnknown",
            "0",
        ),
        (
            "P27",
            pod()
                .init(&[sc("sc")])
                .init_st(vec![started(run_r("sc"), true)])
                .st(vec![run_r("app")])
                .cond("Initialized", "True", "")
                .cond("Ready", "True", ""),
            "2/2",
            "Running",
            "0",
        ),
        (
            "P28",
            pod()
                .init(&[sc("sc")])
                .init_st(vec![started(run("sc"), true)])
                .st(vec![run_r("app")])
                .cond("Initialized", "True", ""),
            "1/2",
            "Running",
            "0",
        ),
        (
            "P29",
            pod()
                .phase("Pending")
                .init(&[sc("sc")])
                .init_st(vec![started(run("sc"), false)])
                .st(vec![wait("app", "PodInitializing")])
                .cond("Initialized", "False", ""),
            "0/2",
            "Init:0/1",
            "0",
        ),
        (
            "P30",
            pod()
                .phase("Pending")
                .init(&[sc("sc"), ic("i2")])
                .init_st(vec![started(run_r("sc"), true), run("i2")])
                .cond("Initialized", "False", ""),
            "1/2",
            "Init:1/2",
            "0",
        ),
        (
            "P31",
            pod()
                .init(&[sc("sc")])
                .init_st(vec![started(
                    rc(wait("sc", "CrashLoopBackOff"), 4, Some(120)),
                    false,
                )])
                .st(vec![rc(run_r("app"), 1, Some(3600))])
                .cond("Initialized", "True", ""),
            "1/2",
            "Init:CrashLoopBackOff",
            "5 (2m ago)",
        ),
    ]
}
