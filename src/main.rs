//! The `bgedit` binary: reads the command line and hands it to its command
//! (`cli/<command>.rs`, each a `run` returning the exit status); with no
//! command, the editor.

use bgedit::cli::editor::{self, EditorOptions};
use bgedit::cli::signals::with_engines;
use bgedit::cli::{Cli, Command};
use clap::{CommandFactory, Parser};
use std::process::ExitCode;

/// clap's refusal (or its help): an error quotes the argument it refuses,
/// which is printed escaped like any other; help and version are ours.
fn clap_refusal(e: &clap::Error) -> ExitCode {
    let code = ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    if e.use_stderr() {
        bgedit_core::say!("{}", e.render().to_string().trim_end());
    } else {
        let _ = e.print();
    }
    code
}

fn main() -> ExitCode {
    let code = run();
    // The editor may quit while its worker still holds the files an engine
    // reads: nothing is left in the temporary directory.
    bgedit_engine::clean_up();
    code
}

fn run() -> ExitCode {
    bgedit::cli::plans::hand_to_library();
    // A mistyped command is named as one before clap reads the rest.
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let command = Cli::command();
    // Hidden commands (`__hold-clipboard`) are not offered to users.
    let commands: Vec<&str> = command
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name())
        .collect();
    if let Some(message) = bgedit::cli::suggest::check_first_words(&args, &commands) {
        bgedit_core::say!("{message}");
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_refusal(&e),
    };
    let editor_options = EditorOptions {
        engines: cli.engines,
        met: cli.met,
        library: cli.library,
        view: cli.view.map(Into::into),
    };
    match cli.command {
        Some(Command::Show(args)) => bgedit::cli::show::run(args),
        Some(Command::Convert(args)) => bgedit::cli::convert::run(args),
        Some(Command::Moves(args)) => bgedit::cli::moves::run(args),
        Some(Command::Play(args)) => bgedit::cli::play::run(args),
        Some(Command::Stats(args)) => bgedit::cli::stats::run(args),
        Some(Command::Analyse { analyse, ids }) => {
            with_engines(|| bgedit::cli::analyse::run(analyse, &ids))
        }
        Some(Command::Image(args)) => bgedit::cli::image::run(&args),
        Some(Command::Library(args)) => bgedit::cli::library::run(args),
        Some(Command::Match(args)) => with_engines(|| bgedit::cli::matches::run(&args)),
        Some(Command::Quiz(args)) => bgedit::cli::quiz::run(args, editor_options),
        Some(Command::HoldClipboard) => editor::hold_clipboard(),
        None => editor::run(editor::start_of(&cli.id, cli.new), editor_options),
    }
}
