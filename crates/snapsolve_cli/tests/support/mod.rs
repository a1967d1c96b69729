//! Helpers shared by the CLI's end-to-end tests.

use std::path::PathBuf;

/// A file in the temporary directory, removed when dropped. The process id in
/// its name keeps test binaries running side by side apart.
pub struct TempFile(PathBuf);

impl TempFile {
    pub fn new(name: &str, contents: impl AsRef<[u8]>) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("snapsolve-cli-{}-{name}", std::process::id()));
        std::fs::write(&path, contents).expect("the temporary directory is writable");
        TempFile(path)
    }

    pub fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
