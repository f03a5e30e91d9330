use crate::setup::PositionArgs;
use anyhow::Result;
use clap::Args;

#[derive(Args)]
pub struct ShowArgs {
    #[command(flatten)]
    position: PositionArgs,
}

pub fn run(args: ShowArgs) -> Result<()> {
    let (_, game) = args.position.build()?;
    println!("{}", game.board());
    let moves = game.legal_moves();
    if !moves.is_empty() {
        println!(
            "{} legal move{}",
            moves.len(),
            if moves.len() == 1 { "" } else { "s" }
        );
    }
    println!("{}", game.to_text());
    Ok(())
}
