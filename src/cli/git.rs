//! The old versions of files from git, for `subst check --git-base REV PATHS`.
//!
//! Each path's folder is extracted at the revision with `git archive REV -- FOLDER | tar -x`
//! into a temporary folder, so that the files it includes come along; the path inside that
//! folder is the old version. A path that does not exist at the revision has no old version
//! (its components are all new).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::diag::Diagnostic;

fn git(args: &[&str], cwd: &Path) -> Result<std::process::Output, Diagnostic> {
    Command::new("git")
        .args(args)
        .current_dir(cwd)
        .output()
        .map_err(|e| Diagnostic::global(format!("cannot run git: {e}")))
}

/// The old version of `path` at `rev`, extracted under `into`; `None` when `path` does not exist
/// at `rev`.
pub fn old_version(rev: &str, path: &Path, into: &Path) -> Result<Option<PathBuf>, Diagnostic> {
    let absolute = path.canonicalize().map_err(|e| Diagnostic::global(format!("{}: {e}", path.display())))?;
    let folder =
        if absolute.is_dir() { absolute.clone() } else { absolute.parent().unwrap_or(&absolute).to_path_buf() };
    let top = git(&["rev-parse", "--show-toplevel"], &folder)?;
    if !top.status.success() {
        return Err(Diagnostic::global(format!("{}: not inside a git repository", path.display()))
            .with_note(String::from_utf8_lossy(&top.stderr).trim().to_string()));
    }
    let root = PathBuf::from(String::from_utf8_lossy(&top.stdout).trim());
    let root = root.canonicalize().unwrap_or(root);
    let rel_folder = folder.strip_prefix(&root).map_err(|_| {
        Diagnostic::global(format!("{} is not inside the repository {}", path.display(), root.display()))
    })?;
    let rel_path = absolute.strip_prefix(&root).unwrap_or(&absolute).to_path_buf();
    let verify = git(&["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")], &root)?;
    if !verify.status.success() {
        return Err(Diagnostic::global(format!("--git-base {rev}: no such revision in {}", root.display())));
    }
    let spec = if rel_folder.as_os_str().is_empty() { ".".to_string() } else { rel_folder.display().to_string() };
    let exists = git(&["cat-file", "-e", &format!("{rev}:{}", rel_path.display())], &root)?;
    if !exists.status.success() {
        return Ok(None);
    }
    let archive = Command::new("git")
        .args(["archive", "--format=tar", rev, "--", &spec])
        .current_dir(&root)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Diagnostic::global(format!("cannot run git archive: {e}")))?;
    let tar = Command::new("tar")
        .args(["-x", "-C"])
        .arg(into)
        .stdin(archive.stdout.ok_or_else(|| Diagnostic::global("git archive gave no output"))?)
        .output()
        .map_err(|e| Diagnostic::global(format!("cannot run tar: {e}")))?;
    if !tar.status.success() {
        return Err(Diagnostic::global(format!(
            "extracting {spec} at {rev} failed: {}",
            String::from_utf8_lossy(&tar.stderr).trim()
        )));
    }
    let old = into.join(&rel_path);
    Ok(old.exists().then_some(old))
}
