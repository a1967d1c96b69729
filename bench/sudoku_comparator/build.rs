//! Builds tdoku's solver (and its `example/solve.c`) from the shared comparator
//! sources, read in place, never copied: `$TDOKU_DIR`, else
//! `../../../shared/comparators/tdoku` beside this crate. tdoku is compiled as its own
//! README says (`-O3 -march=native -std=c++17`). When the sources are missing the
//! comparator is built without tdoku and says so when it runs (`cfg(tdoku)` unset).

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(tdoku)");
    println!("cargo::rerun-if-env-changed=TDOKU_DIR");
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
        .flag("-march=native")
        .warnings(false)
        .file(&solver)
        .file(dir.join("src/util.cc"))
        .compile("tdoku");
    println!("cargo::rustc-cfg=tdoku");
}
