//! Real C in: every shared C file loads or is UNKNOWN with a span, never
//! bad input; the glibc `reach_error`, statement expressions, the comma operator, casts,
//! `sizeof`, `enum`, `typedef`, `switch`, `goto` and `main(argc, argv)` mean what C says;
//! the C preprocessor runs when a file needs it and diagnostics point at the user's lines;
//! SV-COMP task files (`.yml`) are read. Through the binary and the public API; the tests
//! that need the front end's internals are in `src/frontend/tests/real_c.rs`.

mod common;

use lpmc::tools::regress;
use lpmc::{expected_safe_for, DataModel, Task, TaskError, Verdict};
use std::path::Path;
use std::process::Command;

fn lpmc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lpmc"))
}

#[test]
fn the_binary_never_answers_bad_input_on_real_files() {
    let dir = require_benchmarks!("the_binary_never_answers_bad_input_on_real_files");
    let mut files = vec![
        dir.join("svcomp/loop-simple/nested_1.c"),
        dir.join("eureka/bubblesort_klee.c"),
    ];
    if let Some(w) = common::wild_dir() {
        files.push(w.join("loop-invgen/nested6.i"));
        files.push(w.join("loop-invgen/nested6.yml"));
        files.push(w.join("array-examples/standard_running-2.i"));
        files.push(w.join("loop-zilu/benchmark09_conjunctive.yml"));
    }
    for f in files.iter().filter(|f| f.exists()) {
        for cmd in ["check", "bmc"] {
            let out = lpmc()
                .args([cmd, "--timeout", "2"])
                .arg(f)
                .output()
                .expect("runs");
            let code = out.status.code();
            assert!(
                matches!(code, Some(0 | 10 | 20)),
                "lpmc {cmd} {}: exit {code:?}\n{}",
                f.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

#[test]
fn goto_through_run_check_and_bmc() {
    let prog = |name: &str| common::lp_dir().join(name);
    let code = |args: &[&str], file: &Path| {
        lpmc()
            .args(args)
            .arg(file)
            .output()
            .expect("runs")
            .status
            .code()
    };
    let wrong = prog("goto_out_of_loop_wrong.c");
    let right = prog("goto_out_of_loop.c");
    let back = prog("goto_backward_loop_wrong.c");
    assert_eq!(code(&["run"], &wrong), Some(10));
    assert_eq!(code(&["run"], &right), Some(0));
    assert_eq!(code(&["check"], &wrong), Some(10));
    assert_eq!(code(&["check"], &right), Some(0));
    assert_eq!(code(&["check"], &back), Some(10));
    assert_eq!(code(&["bmc"], &wrong), Some(10));
    assert_eq!(code(&["bmc"], &back), Some(10));
    assert_eq!(
        code(&["bmc", "--unwind", "8"], &prog("goto_backward_loop.c")),
        Some(0)
    );
    let bad = prog("errors/structure_goto_undefined_label.c");
    let out = lpmc().arg("check").arg(&bad).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("structure_goto_undefined_label.c:7:10"),
        "{err}"
    );
}

#[test]
fn no_cpp_makes_a_file_that_needs_the_preprocessor_bad_input() {
    // (The library side is `without_a_preprocessor_a_file_that_needs_one_is_unknown`.)
    let out = lpmc()
        .args(["check", "--no-cpp"])
        .arg(common::lp_dir().join("define_sized_array.c"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn task_files() {
    let dir = std::env::temp_dir().join(format!("lpmc-tasks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let prog = "int main(void) { int x = u; if (x == 5) reach_error(); return 0; }\n";
    std::fs::write(dir.join("p.c"), prog).expect("write");
    let task = |name: &str, verdict: &str, prop: &str| {
        let text = format!(
            "format_version: '2.0'\ninput_files: 'p.i'\nproperties:\n  - property_file: ../properties/{prop}.prp\n    expected_verdict: {verdict}\noptions:\n  language: C\n  data_model: LP64\n"
        );
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        path
    };
    let wrong = task("wrong.yml", "true", "unreach-call");
    let right = task("right.yml", "false", "unreach-call");
    let other = task("other.yml", "true", "no-overflow");
    let t = Task::read(&right).expect("a task");
    assert_eq!(t.input, dir.join("p.c"));
    assert_eq!(t.data_model, DataModel::Lp64);
    assert_eq!(expected_safe_for(&right), Some(false));
    let check = |path: &Path| {
        let out = lpmc()
            .args(["check", "--expect"])
            .arg(path)
            .output()
            .expect("runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, _) = check(&right);
    assert_eq!(code, Some(10));
    assert!(out.contains("MATCH") && !out.contains("MISMATCH"), "{out}");
    let (code, out, _) = check(&wrong);
    assert_eq!(code, Some(10));
    assert!(out.contains("MISMATCH"), "{out}");
    // A task with only no-overflow is checked for that property (p.c has no arithmetic).
    let (code, out, _) = check(&other);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("property: no-overflow") && out.contains("MATCH"),
        "{out}"
    );
    // A property lpmc does not check is UNKNOWN, naming it.
    let termination = task("termination.yml", "true", "termination");
    let (code, out, _) = check(&termination);
    assert_eq!(code, Some(20), "{out}");
    assert!(out.contains("termination"), "{out}");
    assert!(matches!(
        Task::read(&other).and_then(|t| t.unreach_call().map(|_| ())),
        Err(TaskError::NoUnreachCall { .. })
    ));
    // `lpmc regress` collects the tasks of a folder instead of the programs they name.
    let found = regress::collect(std::slice::from_ref(&dir));
    assert!(
        found.contains(&right) && !found.contains(&dir.join("p.c")),
        "{found:?}"
    );
    assert_eq!(regress::expected_for_file(&right), Some(Verdict::Unsafe));
    let _ = std::fs::remove_dir_all(&dir);
}
