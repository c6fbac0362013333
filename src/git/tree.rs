//! The regular files of a tree and their content, asked of git (`git ls-tree`, `git cat-file
//! --batch`): how the reviewer's copy of a revision is made in a repository libgit2 cannot open
//! (sha256, reftable).

use anyhow::{Context as _, Result};

use crate::git::repo::Repo;

/// At most this many bytes of content are asked for in one `git cat-file --batch` call (its
/// output is held whole).
const BATCH_BYTES: u64 = 32 << 20;

/// What receives each file: its path, whether it is executable, its content.
pub type EachFile<'a> = dyn FnMut(&[u8], bool, &[u8]) + 'a;

/// A regular file of a tree.
struct Entry {
    path: Vec<u8>,
    id: String,
    size: u64,
    executable: bool,
}

/// Hands `each` every regular file (not a link, not a submodule) of tree-ish `id` no bigger than
/// `max_file` bytes: its path, whether it is executable, and its content, in path order.
pub fn tree_files(repo: &Repo, id: &str, max_file: u64, each: &mut EachFile) -> Result<()> {
    let git = repo.git();
    let listing = git
        .output(&["ls-tree", "-r", "-z", "--full-tree", "-l", id])
        .with_context(|| format!("cannot list the files of {id}"))?;
    let entries: Vec<Entry> = listing
        .split(|&b| b == 0)
        .filter_map(entry)
        .filter(|e| e.size <= max_file)
        .collect();
    let mut batch: Vec<&Entry> = Vec::new();
    let mut bytes = 0;
    for e in &entries {
        if !batch.is_empty() && bytes + e.size > BATCH_BYTES {
            read_batch(&git, &batch, each)?;
            (batch, bytes) = (Vec::new(), 0);
        }
        bytes += e.size;
        batch.push(e);
    }
    if !batch.is_empty() {
        read_batch(&git, &batch, each)?;
    }
    Ok(())
}

/// `<mode> <type> <id> <size>\t<path>`: a regular file, or `None`.
fn entry(record: &[u8]) -> Option<Entry> {
    let tab = record.iter().position(|&b| b == b'\t')?;
    let meta = std::str::from_utf8(&record[..tab]).ok()?;
    let mut parts = meta.split_whitespace();
    let mode = parts.next()?;
    let kind = parts.next()?;
    let id = parts.next()?;
    let size = parts.next()?.parse().ok()?;
    let executable = match (kind, mode) {
        ("blob", "100644") => false,
        ("blob", "100755") => true,
        _ => return None,
    };
    Some(Entry {
        path: record[tab + 1..].to_vec(),
        id: id.to_string(),
        size,
        executable,
    })
}

fn read_batch(git: &crate::git::command::Git, batch: &[&Entry], each: &mut EachFile) -> Result<()> {
    let input: String = batch.iter().map(|e| format!("{}\n", e.id)).collect();
    let out = git.output_with_input(&["cat-file", "--batch"], input.into_bytes())?;
    // `<id> blob <size>\n<content>\n`, one per id, in order.
    let mut at = 0;
    for e in batch {
        let nl = out[at..]
            .iter()
            .position(|&b| b == b'\n')
            .context("`git cat-file --batch` ended early")?
            + at;
        let header = String::from_utf8_lossy(&out[at..nl]).into_owned();
        let size: usize = header
            .rsplit(' ')
            .next()
            .and_then(|s| s.parse().ok())
            .with_context(|| format!("`git cat-file --batch` said {header:?}"))?;
        let content = out
            .get(nl + 1..nl + 1 + size)
            .context("`git cat-file --batch` ended early")?;
        each(&e.path, e.executable, content);
        at = nl + 1 + size + 1;
    }
    Ok(())
}
