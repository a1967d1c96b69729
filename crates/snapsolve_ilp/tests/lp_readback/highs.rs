//! The HiGHS side of the read-back test (built with `--features highs`).

use std::ffi::{CString, c_void};
use std::path::{Path, PathBuf};

use highs_sys::{
    Highs_create, Highs_destroy, Highs_getModelStatus, Highs_getNumCol, Highs_getNumRow,
    Highs_getObjectiveValue, Highs_getSolution, Highs_readModel, Highs_run,
    Highs_setBoolOptionValue, HighsInt, MODEL_STATUS_INFEASIBLE, MODEL_STATUS_OPTIMAL,
    STATUS_ERROR,
};
use snapsolve_ilp::{SetIlp, write_model_lp};
use snapsolve_set::finders::find_sets_brute;
use snapsolve_set::{Layout, Triple};

/// A HiGHS instance owned by the test, destroyed on drop.
struct Highs(*mut c_void);

impl Highs {
    fn read(path: &Path) -> Highs {
        let file = CString::new(path.to_string_lossy().as_bytes()).expect("path has no NUL");
        let quiet = CString::new("output_flag").expect("no NUL");
        // SAFETY: Highs_create returns a fresh instance; the C strings outlive the calls.
        unsafe {
            let highs = Highs(Highs_create());
            Highs_setBoolOptionValue(highs.0, quiet.as_ptr(), 0);
            let status = Highs_readModel(highs.0, file.as_ptr());
            assert_ne!(
                status,
                STATUS_ERROR,
                "HiGHS could not read {}",
                path.display()
            );
            highs
        }
    }

    fn counts(&self) -> (HighsInt, HighsInt) {
        // SAFETY: self.0 is a live instance.
        unsafe { (Highs_getNumCol(self.0), Highs_getNumRow(self.0)) }
    }

    /// Solves; the chosen cards (first `n_cards` columns at 1), or `None` if infeasible.
    fn solve(&self, n_cards: usize) -> Option<Triple> {
        let (cols, rows) = self.counts();
        let mut col_value = vec![0.0; cols as usize];
        let mut col_dual = vec![0.0; cols as usize];
        let mut row_value = vec![0.0; rows as usize];
        let mut row_dual = vec![0.0; rows as usize];
        // SAFETY: self.0 is live and the buffers have the sizes HiGHS reports.
        let (status, objective) = unsafe {
            assert_ne!(Highs_run(self.0), STATUS_ERROR);
            let status = Highs_getModelStatus(self.0);
            if status == MODEL_STATUS_OPTIMAL {
                Highs_getSolution(
                    self.0,
                    col_value.as_mut_ptr(),
                    col_dual.as_mut_ptr(),
                    row_value.as_mut_ptr(),
                    row_dual.as_mut_ptr(),
                );
            }
            (status, Highs_getObjectiveValue(self.0))
        };
        if status == MODEL_STATUS_INFEASIBLE {
            return None;
        }
        assert_eq!(status, MODEL_STATUS_OPTIMAL);
        assert!((objective - 3.0).abs() < 1e-6, "objective {objective}");
        // The LP writer lists x1..xN first, so HiGHS numbers them first.
        let chosen: Vec<usize> = (0..n_cards).filter(|&i| col_value[i] > 0.5).collect();
        Some(Triple::try_from(chosen.as_slice()).expect("three cards chosen"))
    }
}

impl Drop for Highs {
    fn drop(&mut self) {
        // SAFETY: created by Highs_create and destroyed once.
        unsafe { Highs_destroy(self.0) }
    }
}

fn temp_lp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("snapsolve-ilp-{}-{name}.lp", std::process::id()))
}

/// Enumerates SETs by writing the model with its cuts to a file each round.
fn sets_through_lp_files(layout: &Layout, name: &str) -> Vec<Triple> {
    let path = temp_lp(name);
    let mut model = SetIlp::build(layout);
    let mut sets = Vec::new();
    loop {
        let mut file = std::fs::File::create(&path).expect("temp file");
        write_model_lp(layout, &model, &mut file).expect("LP written");
        let highs = Highs::read(&path);
        let (cols, rows) = highs.counts();
        assert_eq!(cols as usize, layout.len() + 16);
        assert_eq!(rows as usize, SetIlp::SEED_ROWS + sets.len());
        match highs.solve(layout.len()) {
            Some(triple) => {
                model.add_no_good(triple);
                sets.push(triple);
            }
            None => break,
        }
    }
    std::fs::remove_file(&path).expect("temp file removed");
    sets.sort_unstable();
    sets
}

#[test]
fn lp_files_read_back_into_highs_give_every_set() {
    let layouts = [
        // Two SETs.
        "1-red-solid-oval 2-green-striped-diamond 3-purple-open-squiggle 1-red-open-oval \
         2-red-striped-oval 3-red-open-oval",
        // Twelve cards, several SETs.
        "1-red-solid-diamond 1-red-solid-oval 1-red-solid-squiggle 2-green-striped-diamond \
         2-green-open-oval 3-purple-open-squiggle 3-purple-striped-oval 2-red-open-squiggle \
         1-green-striped-oval 3-green-solid-diamond 2-purple-solid-oval 1-purple-open-diamond",
        // SET-free (a cap in one attribute plane: two values per attribute).
        "1-red-solid-diamond 1-red-solid-oval 1-red-striped-diamond 1-green-solid-diamond",
    ];
    for (k, names) in layouts.iter().enumerate() {
        let layout = Layout::parse(names).expect("layout parses");
        let expected = find_sets_brute(layout.cards());
        assert_eq!(
            sets_through_lp_files(&layout, &k.to_string()),
            expected,
            "{names}"
        );
    }
}

#[test]
fn lp_files_of_small_layouts_are_infeasible() {
    for (k, names) in ["", "1-red-solid-oval 2-red-solid-oval"].iter().enumerate() {
        let layout = Layout::parse(names).expect("layout parses");
        assert!(sets_through_lp_files(&layout, &format!("small{k}")).is_empty());
    }
}
