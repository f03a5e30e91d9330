//! Embeds the web page (`web/` at the workspace root) in the binary: writes a
//! table of every file with its content type and an ETag, so `plateau serve`
//! needs nothing beside itself and adding a file to `web/` needs no code change.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest.join("../../web");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &root, &mut files);
    files.sort();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let mut table = String::from("&[\n");
    for (index, (url, path)) in files.iter().enumerate() {
        let bytes = std::fs::read(path).expect("a web file is readable");
        let gzip = match compressed(path, &bytes, &out, index) {
            Some(file) => format!("Some(include_bytes!({:?}))", file.display().to_string()),
            None => "None".to_string(),
        };
        let _ = writeln!(
            table,
            "    Asset {{ path: {url:?}, content_type: {:?}, etag: \"\\\"{:016x}\\\"\", body: include_bytes!({:?}), gzip: {gzip} }},",
            content_type(path),
            fnv1a(&bytes),
            path.canonicalize()
                .expect("a web file has a path")
                .display()
                .to_string(),
        );
    }
    table.push(']');
    std::fs::write(out.join("web_assets.rs"), table).expect("OUT_DIR is writable");
}

/// Every file under `dir` (hidden ones left out), as (URL path, file path).
fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        // Hidden files, and the engine's build stamp (for scripts/build-wasm).
        if name.starts_with('.') || name.ends_with(".stamp") {
            continue;
        }
        if path.is_dir() {
            collect(root, &path, out);
        } else if let Ok(relative) = path.strip_prefix(root) {
            let url = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().to_string())
                .collect::<Vec<_>>()
                .join("/");
            out.push((format!("/{url}"), path));
        }
    }
}

/// The gzip form of a file worth compressing (text, the WebAssembly engine),
/// written into `out`; `None` when it would not be smaller.
fn compressed(path: &Path, bytes: &[u8], out: &Path, index: usize) -> Option<PathBuf> {
    use flate2::{Compression, write::GzEncoder};
    use std::io::Write as _;
    let worth = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("html" | "css" | "js" | "mjs" | "json" | "svg" | "wasm" | "txt" | "md")
    );
    if !worth || bytes.len() < 512 {
        return None;
    }
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes).expect("compressing in memory");
    let packed = encoder.finish().expect("compressing in memory");
    if packed.len() >= bytes.len() {
        return None;
    }
    let file = out.join(format!("asset-{index}.gz"));
    std::fs::write(&file, packed).expect("OUT_DIR is writable");
    Some(file)
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "webmanifest" => "application/manifest+json",
        "wasm" => "application/wasm",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// FNV-1a: a content hash for ETags without a dependency.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
