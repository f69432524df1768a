//! The `ktui` binary: parses flags, runs a subcommand if one was given, else loads the
//! config, sets up file logging, starts the two runtimes (a single-threaded one for the UI,
//! a multi-threaded one for the network) and hands over to [`ktui::runtime::run`]. Must not hold
//! application logic: that lives in the library.

/// `eprintln!` that never panics: when the terminal is already gone (hangup, closed pty),
/// a failed write to stderr must not turn a clean exit into a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let mut cli = ktui::cli::Cli::parse();
    if let Some(ktui::cli::Command::DemoServer(args)) = &cli.subcommand {
        let rt = match tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
        {
            Ok(rt) => rt,
            Err(e) => {
                say!("ktui: cannot start the async runtime: {e}");
                return ExitCode::FAILURE;
            }
        };
        return match rt.block_on(ktui::sim::cli::run_demo_server((**args).clone())) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                say!("ktui demo-server: {e:#}");
                ExitCode::FAILURE
            }
        };
    }
    if let Some(cmd) = &cli.subcommand {
        let code = ktui::subcommands::run(&cli, cmd, &mut std::io::stdout(), &mut std::io::stderr());
        return ExitCode::from(code);
    }
    let config = match ktui::config::load(cli.config.as_deref()) {
        Ok(loaded) => loaded.config,
        Err(e) => {
            say!("ktui: {e}");
            return ExitCode::FAILURE;
        }
    };
    // After the config (its errors come first): the UI draws on stdout and reads keys from the controlling terminal: say so plainly
    // instead of crossterm's `No such device or address (os error 6)`.
    if let Some(why) = no_terminal() {
        say!("ktui: {why}: ktui is a full-screen terminal UI; run it in a terminal (`ktui info` and `ktui check-config` work without one)");
        return ExitCode::FAILURE;
    }
    let log_file = cli.log_file.clone().or_else(|| config.log.file.clone());
    let log_path = match ktui::logging::init_with(log_file, &config.log.level.0) {
        Ok(p) => Some(p),
        Err(e) => {
            say!("ktui: logging disabled: {e:#}");
            None
        }
    };
    let runtimes = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("ktui-net")
        .enable_all()
        .build()
        .and_then(|net| {
            Ok((
                net,
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()?,
            ))
        });
    let (net, ui) = match runtimes {
        Ok(rts) => rts,
        Err(e) => {
            say!("ktui: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let demo = if cli.demo {
        // On the network runtime: the server's tasks live there, beside the informers.
        match net.block_on(ktui::sim::cli::start_demo_fleet(ktui::sim::DemoOptions::default())) {
            Ok(h) => {
                cli.kubeconfig = Some(h.kubeconfig.clone());
                // The demo kubeconfig's contexts: the admin's (current), the viewer's, and two
                // more clusters' (`--context ktui-demo,ktui-demo-eu`, `--all-contexts`).
                // A name it does not have is said so, as with any kubeconfig.
                // Its contexts set no namespace: a newcomer sees the whole demo cluster at
                // once (`-n` still picks one).
                if cli.namespace.is_none() {
                    cli.all_namespaces = true;
                }
                Some(h)
            }
            Err(e) => {
                say!("ktui: cannot start the demo cluster: {e:#}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        None
    };
    let result = ui.block_on(ktui::runtime::run(cli, config, net.handle().clone()));
    // The terminal is restored by now. An exec auth plugin still running has its own
    // session: the terminal going away does not end it, so it is killed here (its whole
    // process group).
    ktui::kube::exec_plugin::kill_running();
    // Stops the demo server and removes its temporary kubeconfig.
    if let Some(d) = demo {
        d.close_for_exit();
    }
    let code = match result {
        Ok(code) => code,
        Err(e) => {
            say!("ktui: {e:#}");
            if let Some(p) = log_path {
                say!("ktui: log: {}", p.display());
            }
            1
        }
    };
    // Exit without dropping the runtimes and what their tasks hold (informer stores, the demo
    // server's objects): the log writer is unbuffered and the terminal is restored, so
    // nothing is lost, and quitting with 100k+ rows held stays within a frame or so instead
    // of freeing them object by object (see `ktui::runtime::quit`).
    std::process::exit(i32::from(code))
}

/// Why the UI cannot start here, if it cannot: stdout is not a terminal, or the process has
/// no controlling terminal (`/dev/tty` cannot be opened: cron, `setsid`, a CI job).
fn no_terminal() -> Option<&'static str> {
    use std::io::IsTerminal as _;
    if !std::io::stdout().is_terminal() {
        return Some("standard output is not a terminal");
    }
    if std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .is_err()
    {
        return Some("no controlling terminal (/dev/tty cannot be opened)");
    }
    None
}
