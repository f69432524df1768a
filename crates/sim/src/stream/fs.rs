//! The demo's simulated container file system: a few directories and files whose contents
//! come from the pod (`/etc/hostname`, `/etc/hosts`, `/etc/resolv.conf`) or say what the demo
//! is (`/etc/os-release`, `/README-ktui-demo.txt`). Pure; must not touch the network.

use super::shell::{exists, Container};

/// The contents of file `f` in container `c`.
pub(super) fn contents(f: File, c: &Container) -> String {
    match f {
        File::OsRelease => "NAME=\"Alpine Linux\"\nID=alpine\nVERSION_ID=3.20.3\n\
            PRETTY_NAME=\"Alpine Linux v3.20 (ktui demo: simulated container, no real process)\"\n\
            HOME_URL=\"https://alpinelinux.org/\"\n"
            .into(),
        File::Hostname => format!("{}\n", c.pod),
        File::Hosts => format!(
            "# Kubernetes-managed hosts file (simulated by the ktui demo).\n127.0.0.1\tlocalhost\n{}\t{}\n",
            c.ip, c.pod
        ),
        File::Resolv => format!(
            "search {ns}.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n",
            ns = c.namespace
        ),
        File::Passwd => "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/sbin/nologin\n".into(),
        File::Readme => format!(
            "This is the ktui demo cluster's simulated container {} of pod {}/{}.\n\
             Nothing runs here; exec, attach and port-forward are answered by the demo server.\n",
            c.name, c.namespace, c.pod
        ),
        File::Empty => String::new(),
    }
}

/// The simulated file system's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum File {
    OsRelease,
    Hostname,
    Hosts,
    Resolv,
    Passwd,
    Readme,
    Empty,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Entry {
    Dir(&'static [&'static str]),
    File(File),
}

/// The entry at an absolute, normalised path.
pub(super) fn entry(path: &str) -> Option<Entry> {
    Some(match path {
        "/" => Entry::Dir(&[
            "README-ktui-demo.txt",
            "bin",
            "dev",
            "etc",
            "home",
            "proc",
            "root",
            "sys",
            "tmp",
            "usr",
            "var",
        ]),
        "/bin" => Entry::Dir(&[
            "ash", "cat", "echo", "hostname", "ls", "ps", "pwd", "sh", "stty", "uname",
        ]),
        "/etc" => Entry::Dir(&["hostname", "hosts", "os-release", "passwd", "resolv.conf"]),
        "/dev" | "/home" | "/proc" | "/root" | "/sys" | "/tmp" | "/usr" | "/var" => Entry::Dir(&[]),
        "/etc/os-release" => Entry::File(File::OsRelease),
        "/etc/hostname" => Entry::File(File::Hostname),
        "/etc/hosts" => Entry::File(File::Hosts),
        "/etc/resolv.conf" => Entry::File(File::Resolv),
        "/etc/passwd" => Entry::File(File::Passwd),
        "/README-ktui-demo.txt" => Entry::File(File::Readme),
        p if p.starts_with("/bin/") && exists(p) => Entry::File(File::Empty),
        _ => return None,
    })
}
