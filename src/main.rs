//! The `ktui` binary: parses flags, sets up file logging, starts the two runtimes (a
//! single-threaded one for the UI, a multi-threaded one for the network) and hands over to
//! [`ktui::app::run`].

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = ktui::cli::Cli::parse();
    let log_path = match ktui::logging::init(cli.log_file.clone()) {
        Ok(p) => Some(p),
        Err(e) => {
            eprintln!("ktui: logging disabled: {e:#}");
            None
        }
    };
    let runtimes = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("ktui-net")
        .enable_all()
        .build()
        .and_then(|net| Ok((net, tokio::runtime::Builder::new_current_thread().enable_all().build()?)));
    let (net, ui) = match runtimes {
        Ok(rts) => rts,
        Err(e) => {
            eprintln!("ktui: cannot start the async runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let result = ui.block_on(ktui::app::run(cli, net.handle().clone()));
    // Informer tasks may be mid-request; do not wait for them.
    net.shutdown_background();
    match result {
        Ok(code) => std::process::ExitCode::from(code),
        Err(e) => {
            eprintln!("ktui: {e:#}");
            if let Some(p) = log_path {
                eprintln!("ktui: log: {}", p.display());
            }
            std::process::ExitCode::FAILURE
        }
    }
}
