//! Pod STATUS/READY/RESTARTS cases P32–P67 of kubectl-columns.md §3.5. Test-only.

use super::*;

/// (id, fixture, READY, STATUS, RESTARTS).
pub(super) fn cases() -> Vec<(&'static str, Pod, &'static str, &'static str, &'static str)> {
    let sc = |n| (n, true);
    let ic = |n| (n, false);
    vec![
        (
            "P32",
            pod()
                .init(&[ic("i1")])
                .init_st(vec![rc(term("i1", 0, "Completed", 0), 2, Some(600))])
                .st(vec![run_r("app")])
                .cond("Initialized", "True", ""),
            "1/1",
            "Running",
            "0",
        ),
        (
            "P33",
            pod().st(vec![rc(run_r("app"), 3, None)]),
            "1/1",
            "Running",
            "3",
        ),
        (
            "P34",
            pod()
                .phase("Succeeded")
                .init(&[sc("sc")])
                .init_st(vec![started(term("sc", 137, "Error", 0), false)])
                .st(vec![term("app", 0, "Completed", 0)])
                .cond("Initialized", "True", ""),
            "0/2",
            "Completed",
            "0",
        ),
        (
            "P35",
            pod()
                .phase("Succeeded")
                .init(&[sc("sc")])
                .init_st(vec![started(term("sc", 137, "Error", 0), false)])
                .st(vec![term("app", 0, "Completed", 0)]),
            "0/2",
            "Init:Error",
            "0",
        ),
        (
            "P36",
            pod()
                .apps(&["a", "b"])
                .st(vec![wait("a", "CrashLoopBackOff"), wait("b", "ImagePullBackOff")]),
            "0/2",
            "CrashLoopBackOff",
            "0",
        ),
        (
            "P37",
            pod().phase("Failed").reason("NodeAffinity"),
            "0/1",
            "NodeAffinity",
            "0",
        ),
        (
            "P38",
            pod().phase("Pending").st(vec![wait("app", "")]),
            "0/1",
            "Pending",
            "0",
        ),
        (
            "P42",
            pod()
                .init(&[ic("i1"), ic("i2")])
                .init_st(vec![term("i1", 0, "Completed", 0), wait("i2", "ErrImagePull")]),
            "0/1",
            "Init:ErrImagePull",
            "0",
        ),
        (
            "P43",
            pod()
                .init(&[sc("sc")])
                .init_st(vec![started(rc(run_r("sc"), 2, Some(7200)), true)])
                .st(vec![rc(run_r("app"), 1, Some(300))])
                .cond("Initialized", "True", ""),
            "2/2",
            "Running",
            "3 (5m ago)",
        ),
        (
            "P44",
            pod()
                .st(vec![rc(wait("app", "CrashLoopBackOff"), 7, Some(100_000))])
                .deleting(),
            "0/1",
            "Terminating",
            "7 (27h ago)",
        ),
        ("P45", pod().phase("Unknown"), "0/1", "Unknown", "0"),
        (
            "P46",
            pod().init(&[ic("i1"), sc("sc"), ic("i3")]).init_st(vec![
                term("i1", 0, "Completed", 0),
                started(run_r("sc"), true),
                wait("i3", "CreateContainerConfigError"),
            ]),
            "1/2",
            "Init:CreateContainerConfigError",
            "0",
        ),
        (
            "P47",
            pod()
                .phase("Failed")
                .apps(&["a", "b"])
                .st(vec![term("a", 1, "Error", 0), term("b", 0, "Completed", 0)]),
            "0/2",
            "Error",
            "0",
        ),
        (
            "P48",
            pod()
                .phase("Succeeded")
                .apps(&["a", "b"])
                .st(vec![term("a", 0, "Completed", 0), term("b", 0, "Completed", 0)]),
            "0/2",
            "Completed",
            "0",
        ),
        (
            "P49",
            pod().phase("Pending").init(&[ic("i1")]),
            "0/1",
            "Pending",
            "0",
        ),
        (
            "P50",
            pod()
                .phase("Pending")
                .init(&[ic("i1")])
                .st(vec![wait("app", "PodInitializing")]),
            "0/1",
            "PodInitializing",
            "0",
        ),
        (
            "P51",
            pod()
                .apps(&["a", "b", "c"])
                .st(vec![run_r("a"), run("b"), run_r("c")])
                .cond("Ready", "False", ""),
            "2/3",
            "Running",
            "0",
        ),
        (
            "P53",
            pod().phase("Failed").reason("Evicted").deleting(),
            "0/1",
            "Evicted",
            "0",
        ),
        (
            "P54",
            pod().st(vec![rc(term("app", 0, "Completed", 0), 4, Some(11_100))]),
            "0/1",
            "Completed",
            "4 (3h5m ago)",
        ),
        (
            "P56",
            pod().phase("Pending").deleting(),
            "0/1",
            "Terminating",
            "0",
        ),
        (
            "P57",
            pod()
                .phase("Pending")
                .reason("SomeReason")
                .cond("PodScheduled", "False", "SchedulingGated"),
            "0/1",
            "SchedulingGated",
            "0",
        ),
        (
            "P58",
            pod()
                .init(&[ic("i1")])
                .init_st(vec![started(run_r("ghost"), true)])
                .st(vec![run_r("app")])
                .cond("Initialized", "True", ""),
            "1/1",
            "Init:0/1",
            "0",
        ),
        (
            "P59",
            pod()
                .init(&[sc("sc")])
                .init_st(vec![started(term("sc", 0, "Completed", 0), false)])
                .st(vec![run_r("app")])
                .cond("Initialized", "True", ""),
            "1/2",
            "Running",
            "0",
        ),
        (
            "P63",
            pod()
                .phase("Failed")
                .apps(&["a", "z"])
                .st(vec![term("a", 0, "Completed", 0), term("z", 1, "Error", 0)]),
            "0/2",
            "Error",
            "0",
        ),
        (
            "P64",
            pod()
                .apps(&["a", "b", "c"])
                .st(vec![
                    term("a", 0, "Completed", 0),
                    run_r("b"),
                    term("c", 1, "Error", 0),
                ])
                .cond("Ready", "False", ""),
            "1/3",
            "Error",
            "0",
        ),
        (
            "P66",
            pod()
                .phase("Failed")
                .apps(&["a", "b"])
                .st(vec![term("a", 0, "Completed", 0), term("b", 137, "OOMKilled", 0)]),
            "0/2",
            "OOMKilled",
            "0",
        ),
        (
            "P67",
            pod()
                .phase("Failed")
                .apps(&["a", "b"])
                .st(vec![term("a", 0, "Completed", 0), term("b", 2, "", 0)]),
            "0/2",
            "ExitCode:2",
            "0",
        ),
    ]
}
