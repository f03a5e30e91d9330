//! Writes every target's seed inputs under a directory (default
//! `fuzz/corpus`), one folder per target, for `cargo fuzz run` to start from:
//! `cargo run -p plateau-fuzz --example write_seeds`.

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/corpus".into()),
    );
    for &(name, _) in plateau_fuzz::TARGETS {
        let dir = root.join(name);
        std::fs::create_dir_all(&dir)?;
        for (index, seed) in plateau_fuzz::seeds(name).iter().enumerate() {
            std::fs::write(dir.join(format!("seed-{index:02}")), seed)?;
        }
    }
    println!("seeds written under {}", root.display());
    Ok(())
}
