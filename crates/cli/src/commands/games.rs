use anyhow::Result;
use plateau_games::GAMES;

pub fn run() -> Result<()> {
    for info in GAMES {
        println!("{:<10} {} — {}", info.name, info.title, info.description);
        for (i, variant) in info.variants.iter().enumerate() {
            let default = if i == 0 { " (default)" } else { "" };
            println!(
                "{:<12} --variant {}{default}: {}",
                "", variant.name, variant.description
            );
        }
        println!("{:<12} position text: {}", "", info.position_example);
    }
    Ok(())
}
