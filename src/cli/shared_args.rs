//! Arguments several commands share (flattened into each with clap's
//! `#[command(flatten)]`): below the commands, so each command's file holds
//! its own arguments and `args.rs` only gathers them.

#[derive(clap::Args, Debug, Clone)]
pub struct NameArgs {
    /// Name of player O (gnubg's player 0, drawn on top).
    #[arg(long, value_name = "NAME", default_value = "White")]
    pub name_o: String,
    /// Name of player X (gnubg's player 1, drawn at the bottom).
    #[arg(long, value_name = "NAME", default_value = "Black")]
    pub name_x: String,
}

impl NameArgs {
    /// The two names, as a position holds them.
    pub fn into_names(self) -> crate::domain::Names {
        crate::domain::Names {
            o: self.name_o,
            x: self.name_x,
        }
    }
}

#[derive(clap::Args, Debug, Clone)]
pub struct CommonArgs {
    /// Do not print warnings and notes about lost fields on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}
