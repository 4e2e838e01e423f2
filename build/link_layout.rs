//! Links the `appdeck` binary so that starting it touches few pages of its code.
//!
//! The functions the TUI runs until its first rows are on screen are about 2 MB of code, spread
//! over the 14 MB of `.text`; the kernel maps code 64 KB at a time around each page touched, so
//! the start-up kept 8.5 MB of code resident. Listed first in `build/startup.order` (written by
//! `benches/startup_order.sh`), the linker puts them side by side, and the start-up RSS falls by
//! about 6 MB. Packed relative relocations (`DT_RELR`) shrink the 900 KB the dynamic loader reads
//! at start to 10 KB.
//!
//! Both are linker options that not every linker or C library takes (lld takes the order file,
//! GNU ld does not; `DT_RELR` needs glibc 2.36), so each is first tried on a tiny program, built
//! and run: one that fails is left out and the build goes on as before. A stale order file (its
//! symbols renamed by a new compiler or new dependencies) only loses the gain: the bench shows
//! it, and the script writes it again.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Emits the link arguments of the `appdeck` binary that this toolchain and system take.
pub fn emit(manifest_dir: &Path) {
    let order = manifest_dir.join("build").join("startup.order");
    println!("cargo:rerun-if-changed={}", order.display());
    let (Some(rustc), Some(out_dir)) = (std::env::var_os("RUSTC"), std::env::var_os("OUT_DIR"))
    else {
        return;
    };
    // The probe program runs on the build machine: only a native build can try it.
    let native = std::env::var("TARGET").ok() == std::env::var("HOST").ok();
    if !native || std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return;
    }
    let probe = Probe {
        rustc: PathBuf::from(rustc),
        dir: PathBuf::from(out_dir),
    };
    let candidates: [Vec<String>; 2] = [
        vec![
            format!("-Wl,--symbol-ordering-file={}", order.display()),
            "-Wl,--no-warn-symbol-ordering".to_owned(),
        ],
        vec!["-Wl,-z,pack-relative-relocs".to_owned()],
    ];
    for (n, args) in candidates.iter().enumerate() {
        if order.exists() && probe.links_and_runs(n, args) {
            for arg in args {
                println!("cargo:rustc-link-arg-bin=appdeck={arg}");
            }
        }
    }
}

/// Builds and runs an empty program with the link arguments tried.
struct Probe {
    rustc: PathBuf,
    dir: PathBuf,
}

impl Probe {
    fn links_and_runs(&self, n: usize, link_args: &[String]) -> bool {
        let source = self.dir.join("link_probe.rs");
        let binary = self.dir.join(format!("link_probe_{n}"));
        if std::fs::write(&source, "fn main() {}\n").is_err() {
            return false;
        }
        let mut rustc = Command::new(&self.rustc);
        rustc.arg(&source).arg("-o").arg(&binary);
        // The flags the crate itself is built with (a linker chosen in RUSTFLAGS, say).
        if let Ok(flags) = std::env::var("CARGO_ENCODED_RUSTFLAGS") {
            rustc.args(flags.split('\x1f').filter(|f| !f.is_empty()));
        }
        for arg in link_args {
            rustc.arg("-C").arg(format!("link-arg={arg}"));
        }
        let built = rustc.output().is_ok_and(|o| o.status.success());
        built && Command::new(&binary).status().is_ok_and(|s| s.success())
    }
}
