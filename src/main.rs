//! The `ktui` binary: parses flags, runs a subcommand if one was given, else loads the
//! config, sets up file logging, starts the two runtimes (a single-threaded one for the UI,
//! a multi-threaded one for the network) and hands over to [`ktui::app::run`].

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = ktui::cli::Cli::parse();
    if let Some(cmd) = &cli.subcommand {
        let code = ktui::commands::run(&cli, cmd, &mut std::io::stdout(), &mut std::io::stderr());
        return ExitCode::from(code);
    }
    let config = match ktui::config::load(cli.config.as_deref()) {
        Ok(loaded) => loaded.config,
        Err(e) => {
            eprintln!("ktui: {e}");
            return ExitCode::FAILURE;
        }
    };
    let log_file = cli.log_file.clone().or_else(|| config.log.file.clone());
    let log_path = match ktui::logging::init_with(log_file, &config.log.level.0) {
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
            eprintln!("ktui: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = ui.block_on(ktui::app::run(cli, config, net.handle().clone()));
    // Informer tasks may be mid-request; do not wait for them.
    net.shutdown_background();
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("ktui: {e:#}");
            if let Some(p) = log_path {
                eprintln!("ktui: log: {}", p.display());
            }
            ExitCode::FAILURE
        }
    }
}
