//! The `ktui` binary: parses flags, sets up file logging and hands over to [`ktui::app::run`].

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
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ktui: cannot start the async runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match runtime.block_on(ktui::app::run(cli)) {
        Ok(code) => {
            runtime.shutdown_timeout(std::time::Duration::from_millis(200));
            std::process::ExitCode::from(code)
        }
        Err(e) => {
            runtime.shutdown_timeout(std::time::Duration::from_millis(200));
            eprintln!("ktui: {e:#}");
            if let Some(p) = log_path {
                eprintln!("ktui: log: {}", p.display());
            }
            std::process::ExitCode::FAILURE
        }
    }
}
