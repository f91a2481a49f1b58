//! Reseals cache entries with a key: for forging entries by hand and for `benches/fuzz_bin.py`,
//! which mutates payloads of real entries and needs their MAC to match, so that the payload is
//! read rather than rejected at the door.
//!
//! ```text
//! cargo run --release --example reseal -- SECRET ENTRY.json...
//! ```
//!
//! SECRET is the text of `SUBST_CACHE_KEY` the run reading the cache will have. Each entry's
//! envelope keeps its kind and key; only its `mac` is recomputed. A file that is not an envelope
//! is left as it is.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((secret, files)) = args.split_first() else {
        eprintln!("usage: reseal SECRET ENTRY.json...");
        std::process::exit(2);
    };
    let key = subst::cache::Key::from_secret(secret.as_bytes());
    for file in files {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        let Ok(mut entry) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
        let (Some(kind), Some(entry_key)) = (entry["kind"].as_str(), entry["key"].as_str()) else { continue };
        let mac = subst::cache::mac(&key, kind, entry_key, &entry["payload"]);
        entry["mac"] = serde_json::Value::String(mac);
        std::fs::write(file, entry.to_string()).expect("the entry is written back");
    }
}
