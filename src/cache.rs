//! The persistent cache (`.subst/` by default): what a check learned, kept for the next run.
//!
//! Entries are JSON files named by a content hash (BLAKE3) of everything the result depends on:
//! the tool version, the spec's text, the components' IR (source positions aside), the
//! property and the options. Each file repeats its kind, key and tool version in an envelope,
//! with a BLAKE3 checksum of its payload; it is written to a temporary file and renamed, so a
//! reader never sees half an entry.
//!
//! A cached entry is a hint, never a premise: an observation table is used as it is only for a
//! level whose component and property have the digest it was learned for, and re-validated by
//! dynamic L* (paper 003 Theorem 2) otherwise; every candidate built from it goes through
//! Oracle 1 in the new run, and a table whose answers turn out wrong is learned again. A cached
//! verdict of an *old* assembly is only reported, never used for the new one. So a damaged,
//! truncated, stale or foreign entry can cost time but not correctness: it is a miss, logged,
//! and never an error.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The format of the envelope; entries of another format are misses.
pub const FORMAT: u32 = 2;

/// The tool and version that write and accept entries.
pub fn tool() -> String {
    format!("subst {}", env!("CARGO_PKG_VERSION"))
}

/// Where entries live, or nowhere (`--no-cache`).
#[derive(Clone, Debug)]
pub struct Cache {
    dir: Option<PathBuf>,
}

#[derive(Serialize, Deserialize)]
struct Envelope<T> {
    format: u32,
    tool: String,
    kind: String,
    key: String,
    /// BLAKE3 of the payload's JSON text: an entry damaged in place is a miss.
    checksum: String,
    payload: T,
}

/// The checksum an entry carries of its payload.
pub fn checksum(payload: &serde_json::Value) -> String {
    blake3::hash(payload.to_string().as_bytes()).to_hex().to_string()
}

/// The key of a list of parts: the BLAKE3 hash of the tool version and each part,
/// length-prefixed so that no two lists collide by concatenation.
pub fn key(parts: &[&str]) -> String {
    let mut h = blake3::Hasher::new();
    for p in std::iter::once(tool().as_str()).chain(parts.iter().copied()) {
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    h.finalize().to_hex().to_string()
}

impl Cache {
    /// A cache in `dir` (created when the first entry is written).
    pub fn at(dir: impl Into<PathBuf>) -> Cache {
        Cache { dir: Some(dir.into()) }
    }

    /// No cache: every load misses, every store is dropped.
    pub fn disabled() -> Cache {
        Cache { dir: None }
    }

    fn path(&self, kind: &str, key: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(kind).join(format!("{key}.json")))
    }

    /// The entry of `kind` under `key`, when there is a valid one.
    pub fn load<T: DeserializeOwned>(&self, kind: &str, key: &str) -> Option<T> {
        let path = self.path(kind, key)?;
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                tracing::info!(path = %path.display(), %e, "cache miss");
                return None;
            }
        };
        let entry: Envelope<serde_json::Value> = match serde_json::from_str(&text) {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!(path = %path.display(), %e, "damaged cache entry ignored");
                return None;
            }
        };
        if entry.format != FORMAT || entry.tool != tool() || entry.kind != kind || entry.key != key {
            tracing::warn!(path = %path.display(), tool = %entry.tool, "cache entry of another format, tool or key ignored");
            return None;
        }
        if entry.checksum != checksum(&entry.payload) {
            tracing::warn!(path = %path.display(), "cache entry whose checksum does not match ignored");
            return None;
        }
        match serde_json::from_value(entry.payload) {
            Ok(payload) => {
                tracing::info!(path = %path.display(), "cache hit");
                Some(payload)
            }
            Err(e) => {
                tracing::warn!(path = %path.display(), %e, "damaged cache entry ignored");
                None
            }
        }
    }

    /// Stores `payload` as the entry of `kind` under `key`; failures are logged and ignored.
    pub fn store<T: Serialize>(&self, kind: &str, key: &str, payload: &T) {
        let Some(path) = self.path(kind, key) else { return };
        let payload = match serde_json::to_value(payload) {
            Ok(v) => v,
            Err(e) => {
                tracing::warn!(path = %path.display(), %e, "cache entry not written");
                return;
            }
        };
        let envelope = Envelope {
            format: FORMAT,
            tool: tool(),
            kind: kind.to_string(),
            key: key.to_string(),
            checksum: checksum(&payload),
            payload,
        };
        if let Err(e) = write_atomically(&path, &envelope) {
            tracing::warn!(path = %path.display(), %e, "cache entry not written");
        }
    }
}

fn write_atomically<T: Serialize>(path: &Path, value: &T) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let text = serde_json::to_string(value).map_err(std::io::Error::other)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut tmp, text.as_bytes())?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
