//! Builds tdoku's solver (and its `example/solve.c`) from the shared comparator
//! sources, read in place, never copied: `$TDOKU_DIR`, else
//! `../../../shared/comparators/tdoku` beside this crate. tdoku is compiled as its own
//! README says (`-O3 -march=native -std=c++17`); `$TDOKU_MARCH` replaces `native` (for
//! valgrind, which cannot run AVX-512 code: `TDOKU_MARCH=x86-64-v3`). When the sources
//! are missing the comparator is built without tdoku and says so when it runs
//! (`cfg(tdoku)` unset).

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(tdoku)");
    println!("cargo::rerun-if-env-changed=TDOKU_DIR");
    println!("cargo::rerun-if-env-changed=TDOKU_MARCH");
    let march = std::env::var("TDOKU_MARCH").unwrap_or_else(|_| "native".into());
    let dir = std::env::var_os("TDOKU_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/comparators/tdoku"),
        PathBuf::from,
    );
    let solver = dir.join("src/solver_dpll_triad_simd.cc");
    println!("cargo::rerun-if-changed={}", solver.display());
    if !solver.is_file() {
        println!(
            "cargo::warning=tdoku sources not found at {} (set TDOKU_DIR): building without tdoku",
            dir.display()
        );
        println!("cargo::rustc-env=TDOKU_MISSING_FROM={}", dir.display());
        return;
    }
    cc::Build::new()
        .cpp(true)
        .std("c++17")
        .opt_level(3)
        .flag(format!("-march={march}"))
        .warnings(false)
        .file(&solver)
        .file(dir.join("src/util.cc"))
        .compile("tdoku");
    println!("cargo::rustc-cfg=tdoku");
}
