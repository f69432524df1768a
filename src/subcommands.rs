//! The non-interactive subcommands (`check-config`, `info`, `completions`, `import-k9s`): each prints to
//! the given writers and returns an exit code. Owns their output; must not touch the
//! terminal's modes or the network. New subcommands get an arm in [`run`].

use std::io::Write;

use clap::CommandFactory;

use crate::cli::{Cli, Command, Shell};
use crate::config::theme::ColorSupport;
use crate::config::{self, Loaded};

/// Runs `cmd`; returns the process exit code (0 ok, 1 a config error, 2 an I/O error).
pub fn run(cli: &Cli, cmd: &Command, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let res = match cmd {
        Command::CheckConfig => check_config(cli, out, err),
        Command::Info => info(cli, out, err),
        Command::Completions { shell } => completions(*shell, out).map(|()| 0),
        Command::DemoServer(_) => writeln!(err, "ktui: demo-server runs from main").map(|()| 2),
        Command::ImportK9s { from, write } => {
            let config = cli.config.clone().or_else(config::default_path);
            crate::import_k9s::run(from.as_deref(), *write, config, out, err)
        }
    };
    res.unwrap_or(2)
}

/// `check-config`: parses the config strictly; prints `PATH: ok`, the plugins dropped for a
/// clash (exit code 1), or the error.
fn check_config(cli: &Cli, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<u8> {
    match config::load(cli.config.as_deref()) {
        Ok(Loaded {
            path: Some(p),
            found: true,
            config,
        }) => {
            // A clashing plugin is dropped alone: the rest of the config is in force.
            for clash in &config.plugin_clashes {
                writeln!(err, "{clash}")?;
            }
            // Exit 1 with a dropped plugin: the config does not do all it says.
            let n = config.plugin_clashes.len();
            let verdict = match n {
                0 => "ok".to_owned(),
                1 => "1 plugin dropped (above); the rest is in force".to_owned(),
                n => format!("{n} plugins dropped (above); the rest is in force"),
            };
            writeln!(out, "{}: {verdict}", p.display()).map(|()| u8::from(n > 0))
        }
        Ok(Loaded { path: Some(p), .. }) => {
            writeln!(out, "{}: no such file; the defaults are in use", p.display()).map(|()| 0)
        }
        Ok(Loaded { path: None, .. }) => {
            writeln!(out, "no config directory; the defaults are in use").map(|()| 0)
        }
        Err(e) => writeln!(err, "{e}").map(|()| 1),
    }
}

/// `info`: the paths in use and the active theme.
fn info(cli: &Cli, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<u8> {
    let (loaded, code) = match config::load(cli.config.as_deref()) {
        Ok(l) => (l, 0),
        Err(e) => {
            writeln!(err, "{e}")?;
            (
                Loaded {
                    path: Some(e.path.clone()),
                    ..Loaded::default()
                },
                1,
            )
        }
    };
    let cfg = &loaded.config;
    let config_line = match (&loaded.path, loaded.found, code) {
        (Some(p), true, 0) => p.display().to_string(),
        (Some(p), _, 0) => format!("{} (not found: defaults)", p.display()),
        (Some(p), _, _) => format!("{} (invalid: defaults shown)", p.display()),
        (None, _, _) => "(no config directory: defaults)".to_owned(),
    };
    let state = crate::logging::state_dir();
    let log = cli
        .log_file
        .clone()
        .or_else(|| cfg.log.file.clone())
        .unwrap_or_else(|| state.join("ktui.log"));
    let support = cfg.ui.colors.support();
    let name = if support == ColorSupport::None {
        "mono"
    } else {
        cfg.theme_for(cli.context.as_deref())
    };
    let colours = match support {
        ColorSupport::None => "none",
        ColorSupport::Ansi16 => "16",
        ColorSupport::Ansi256 => "256",
        ColorSupport::TrueColor => "truecolor",
    };
    let description = config::theme::spec(name)
        .map(|t| t.description)
        .unwrap_or_default();
    writeln!(out, "config:  {config_line}")?;
    writeln!(out, "log:     {}", log.display())?;
    writeln!(out, "state:   {}", state.display())?;
    writeln!(out, "theme:   {name} ({description}); colours: {colours}")?;
    let overrides = cfg.keymap.len();
    writeln!(out, "keymap:  built-in + {overrides} override(s)")?;
    writeln!(
        out,
        "plugins: {} ({} dropped for a clash: check-config names them)",
        cfg.plugins.len(),
        cfg.plugin_clashes.len()
    )?;
    Ok(code)
}

/// `completions SHELL`: the clap-generated script.
fn completions(shell: Shell, out: &mut dyn Write) -> std::io::Result<()> {
    let shell = match shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "ktui", &mut buf);
    out.write_all(&buf)
}
