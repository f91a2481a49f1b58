//! The persistent cache (`.subst/` by default): what a check learned, kept for the next run.
//!
//! Entries are JSON files named by a content hash (BLAKE3) of everything the result depends on:
//! the tool version, the spec's text, the components' IR (source positions aside), the
//! property and the options. Each file repeats its kind, key and tool version in an envelope,
//! with a MAC (BLAKE3 in keyed mode) of all of these and its payload; it is written to a
//! temporary file and renamed, so a reader never sees half an entry.
//!
//! The cache folder is untrusted input (a cache shared between CI runners comes from
//! elsewhere): the MAC's key is kept *outside* it, in `SUBST_CACHE_KEY` (a secret shared by the
//! runners that share a cache) or else in a key file (`SUBST_CACHE_KEY_FILE`, by default
//! `~/.config/subst/cache-key`, made with 32 random bytes on first use). An entry rewritten
//! without the key — a verdict flipped and a plain checksum recomputed — fails the MAC and is a
//! miss, logged at WARN. Since the MAC covers the entry's kind and key, an authentic entry copied
//! under another key (the verdict of one pair of versions served for another) fails it too. What an entry can cost is bounded too: files over [`MAX_ENTRY_BYTES`]
//! are not read, nor is anything but a regular file (a FIFO would block, `/dev/zero` never ends), and callers bound what they take from an entry (e.g. the number and size of
//! predicates). Every rejection is logged at WARN.
//!
//! Kinds of entries: `compat` (a check of one version: verdict, counts, each level's table),
//! `predicates` (a component's predicates, by its code), `model` (a component's last may-graph
//! and its answered edge queries, by its code, its predicates and the abstraction settings,
//! [`crate::abs::stored`]) and `contain` (containment of a pair of codes). A `model` entry lets
//! a later `subst check` load the old check's models instead of building them again; what it
//! holds is checked for shape against the component and the precision before use (every index
//! in range, sizes bounded), and one that does not fit is a miss with a warning, after which
//! the model is built from the predicates as before.
//!
//! Even an authentic entry is a hint, never a premise: an observation table is used as it is only for a
//! level whose component and property have the digest it was learned for, and re-validated by
//! dynamic L* (paper 003 Theorem 2) otherwise; every candidate built from it goes through
//! Oracle 1 in the new run, and a table whose answers turn out wrong is learned again. A cached
//! verdict of an *old* assembly is only reported, never used for the new one. So a damaged,
//! truncated, stale or foreign entry can cost time but not correctness: it is a miss, logged,
//! and never an error. The same holds for the folder itself: a cache "folder" that is a file
//! disables the cache (one warning), and an entry that cannot be read or written (say, for
//! want of permission) is a miss or is not written, logged at WARN; the run goes on without it.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The format of the envelope; entries of another format are misses.
pub const FORMAT: u32 = 4;

/// The largest entry file read, in bytes; a larger one is a miss.
pub const MAX_ENTRY_BYTES: u64 = 8 << 20;

/// The environment variable holding the cache's secret (shared by CI runners sharing a cache).
pub const KEY_ENV: &str = "SUBST_CACHE_KEY";
/// The environment variable naming the key file, when there is no secret in [`KEY_ENV`].
pub const KEY_FILE_ENV: &str = "SUBST_CACHE_KEY_FILE";

/// The key that authenticates entries: never stored in the cache folder.
#[derive(Clone, PartialEq, Eq)]
pub struct Key([u8; 32]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}

impl Key {
    /// The key derived from a secret text (e.g. the value of [`KEY_ENV`]).
    pub fn from_secret(secret: &[u8]) -> Key {
        Key(blake3::derive_key("subst cache entry MAC v1", secret))
    }

    /// The key for a cache in `dir`: from [`KEY_ENV`], else from the key file (made on first
    /// use); `None`, with a warning, when neither can be had or the file is inside `dir`.
    pub fn for_cache(dir: &Path) -> Option<Key> {
        if let Some(secret) = std::env::var_os(KEY_ENV).filter(|s| !s.is_empty()) {
            return Some(Key::from_secret(secret.as_encoded_bytes()));
        }
        let file = match std::env::var_os(KEY_FILE_ENV).filter(|s| !s.is_empty()) {
            Some(f) => PathBuf::from(f),
            None => {
                let config = std::env::var_os("XDG_CONFIG_HOME")
                    .filter(|s| !s.is_empty())
                    .map(PathBuf::from)
                    .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")));
                let Some(config) = config else {
                    tracing::warn!("no key for the cache (set {KEY_ENV} or {KEY_FILE_ENV}): the cache is not used");
                    return None;
                };
                config.join("subst").join("cache-key")
            }
        };
        let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        if absolute(&file).starts_with(absolute(dir)) {
            tracing::warn!(file = %file.display(), "the cache key file is inside the cache folder: the cache is not used");
            return None;
        }
        match read_or_make_key(&file) {
            Ok(k) => Some(k),
            Err(e) => {
                tracing::warn!(file = %file.display(), %e, "cannot read or make the cache key: the cache is not used");
                None
            }
        }
    }
}

fn read_or_make_key(file: &Path) -> std::io::Result<Key> {
    if !file.exists() {
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let secret: [u8; 32] = rand::random();
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(file) {
            Ok(mut f) => std::io::Write::write_all(&mut f, &secret)?,
            // Another run made it first: read theirs.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    let secret = crate::diag::read_file(file, 4096)?;
    if secret.len() < 16 {
        return Err(std::io::Error::other("the key file holds fewer than 16 bytes"));
    }
    Ok(Key::from_secret(&secret))
}

/// The tool and version that write and accept entries.
pub fn tool() -> String {
    format!("subst {}", env!("CARGO_PKG_VERSION"))
}

/// Where entries live, or nowhere (`--no-cache`).
#[derive(Clone, Debug)]
pub struct Cache {
    /// The folder and the key of its entries.
    dir: Option<(PathBuf, Key)>,
}

#[derive(Serialize, Deserialize)]
struct Envelope<T> {
    format: u32,
    tool: String,
    kind: String,
    key: String,
    /// The keyed BLAKE3 hash of the format, tool, kind, key and payload's JSON text ([`mac`]):
    /// an entry damaged, rewritten without the key or moved to another key is a miss.
    mac: String,
    payload: T,
}

/// The MAC an entry of `kind` under `entry_key` carries of its payload, under `key`. It covers
/// the envelope's other fields too (length-prefixed, so that no two envelopes collide by
/// concatenation): a payload is authentic only for the kind and key it was stored under.
pub fn mac(key: &Key, kind: &str, entry_key: &str, payload: &serde_json::Value) -> String {
    let mut h = blake3::Hasher::new_keyed(&key.0);
    let format = FORMAT.to_string();
    let payload = payload.to_string();
    for part in [format.as_str(), tool().as_str(), kind, entry_key, payload.as_str()] {
        h.update(&(part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.finalize().to_hex().to_string()
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
    /// A cache in `dir` (created when the first entry is written), with the key of
    /// [`Key::for_cache`]; without a key, or when `dir` names something other than a folder,
    /// no cache (with a warning).
    pub fn at(dir: impl Into<PathBuf>) -> Cache {
        let dir = dir.into();
        match std::fs::metadata(&dir) {
            Ok(m) if !m.is_dir() => {
                tracing::warn!(dir = %dir.display(), "the cache folder is not a folder: the cache is not used");
                return Cache::disabled();
            }
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                tracing::warn!(dir = %dir.display(), %e, "cannot use the cache folder: the cache is not used");
                return Cache::disabled();
            }
            _ => {}
        }
        match Key::for_cache(&dir) {
            Some(key) => Cache { dir: Some((dir, key)) },
            None => Cache::disabled(),
        }
    }

    /// A cache in `dir` whose entries are authenticated with `key`.
    pub fn with_key(dir: impl Into<PathBuf>, key: Key) -> Cache {
        Cache { dir: Some((dir.into(), key)) }
    }

    /// No cache: every load misses, every store is dropped.
    pub fn disabled() -> Cache {
        Cache { dir: None }
    }

    /// Whether entries are read and written (a folder and a key).
    pub fn enabled(&self) -> bool {
        self.dir.is_some()
    }

    fn path(&self, kind: &str, key: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|(d, _)| d.join(kind).join(format!("{key}.json")))
    }

    /// The entry of `kind` under `key`, when there is a valid one.
    pub fn load<T: DeserializeOwned>(&self, kind: &str, key: &str) -> Option<T> {
        let path = self.path(kind, key)?;
        let secret = &self.dir.as_ref()?.1;
        // Only a regular file of at most `MAX_ENTRY_BYTES` is read: an entry that is a FIFO
        // would wait for ever, one linked to `/dev/zero` would never end.
        let bytes = match crate::diag::read_file(&path, MAX_ENTRY_BYTES) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                tracing::info!(path = %path.display(), "cache miss");
                return None;
            }
            Err(e) => {
                tracing::warn!(path = %path.display(), %e, "unreadable cache entry ignored");
                return None;
            }
        };
        let Ok(text) = String::from_utf8(bytes) else {
            tracing::warn!(path = %path.display(), "cache entry that is not UTF-8 ignored");
            return None;
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
        if entry.mac != mac(secret, kind, key, &entry.payload) {
            tracing::warn!(path = %path.display(), "cache entry whose MAC does not match (damaged, or written without this key) ignored");
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
        let Some((_, secret)) = &self.dir else { return };
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
            mac: mac(secret, kind, key, &payload),
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
