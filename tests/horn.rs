//! `lpmc horn`: every program gets clauses in CHC-COMP's format (checked here by a small
//! reader of the script: balanced, the forms in order, predicates declared and applied to
//! variables, no free symbol), bad input gets a diagnostic and exit 2, and Spacer (Z3 from
//! PyPI, in a virtual environment the test makes) agrees with the programs' expected
//! verdicts wherever it answers: with `--cells none`, sat is SAFE and unsat UNSAFE; with
//! `--cells found`, sat is SAFE. With `--cells none`, a fixed-seed sample of the programs
//! of lp-programs/ and the shared benchmarks; with `--cells found`, lp-programs/horn/ and
//! a sample of forall/. `LPMC_HORN_ALL=1` takes all of them instead of the samples.

mod common;

use common::{bench_dir, lp_dir, sources, target_dir, venv};
use lpmc::{Cells, CheckOptions, HornOptions};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Z3's time limit per script, in seconds.
const Z3_SECONDS: u64 = 5;

/// Programs of the default sample, per encoding (`--cells found`: of forall/, besides
/// lp-programs/horn/).
const SAMPLE_NONE: usize = 24;
const SAMPLE_FOUND: usize = 4;

/// The seed of the sample.
const SEED: u64 = 53;

// ---------------------------------------------------------------------------------------
// A reader of CHC-COMP scripts.

#[derive(Clone, Debug, PartialEq)]
enum Sx {
    Atom(String),
    List(Vec<Sx>),
}

impl Sx {
    fn atom(&self) -> Option<&str> {
        match self {
            Sx::Atom(a) => Some(a),
            Sx::List(_) => None,
        }
    }
    fn list(&self) -> Option<&[Sx]> {
        match self {
            Sx::List(l) => Some(l),
            Sx::Atom(_) => None,
        }
    }
}

/// The top-level forms of `text` (comments skipped); an error for unbalanced
/// parentheses.
fn parse(text: &str) -> Result<Vec<Sx>, String> {
    let mut stack: Vec<Vec<Sx>> = vec![Vec::new()];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => stack.push(Vec::new()),
            ')' => {
                let l = stack.pop().ok_or("unbalanced `)`")?;
                stack
                    .last_mut()
                    .ok_or("unbalanced `)` at the top level")?
                    .push(Sx::List(l));
            }
            c if c.is_whitespace() => {}
            '|' => {
                let mut s = String::from("|");
                for c in chars.by_ref() {
                    s.push(c);
                    if c == '|' {
                        break;
                    }
                }
                stack.last_mut().expect("a level").push(Sx::Atom(s));
            }
            c => {
                let mut s = String::from(c);
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || c == '(' || c == ')' || c == ';' {
                        break;
                    }
                    s.push(c);
                    chars.next();
                }
                stack.last_mut().expect("a level").push(Sx::Atom(s));
            }
        }
    }
    match (stack.pop(), stack.is_empty()) {
        (Some(top), true) => Ok(top),
        _ => Err("unbalanced `(`".into()),
    }
}

/// The interpreted symbols a clause may use.
const THEORY: &[&str] = &[
    "and", "or", "not", "=>", "=", "distinct", "ite", "select", "store", "+", "-", "*", "div",
    "mod", "<=", "<", ">=", ">", "true", "false", "as", "const", "Array", "Int", "Bool",
];

fn is_sort(s: &Sx) -> bool {
    let atom = |a: &str| Sx::Atom(a.to_string());
    match s {
        Sx::Atom(a) => a == "Int" || a == "Bool",
        Sx::List(l) => *l == [atom("Array"), atom("Int"), atom("Int")],
    }
}

/// Check a script in CHC-COMP's format: `(set-logic HORN)`, the predicates, the clauses
/// (`(forall (vars) (=> tail head))` or `(forall (vars) head)`), `(check-sat)` and
/// `(exit)`. Every predicate applied is declared with its arity and applied to bound
/// variables (distinct in a head), every other symbol is bound or interpreted. Returns the
/// numbers of clauses and queries.
fn well_formed(text: &str) -> Result<(usize, usize), String> {
    let forms = parse(text)?;
    let head = |f: &Sx| {
        f.list()
            .and_then(|l| l.first())
            .and_then(Sx::atom)
            .map(String::from)
    };
    let mut it = forms.iter().peekable();
    match it.next() {
        Some(f) if f == &Sx::List(vec![Sx::Atom("set-logic".into()), Sx::Atom("HORN".into())]) => {}
        other => {
            return Err(format!(
                "the script does not start with (set-logic HORN): {other:?}"
            ))
        }
    }
    let mut preds: BTreeMap<String, usize> = BTreeMap::new();
    while it.peek().and_then(|f| head(f)).as_deref() == Some("declare-fun") {
        let l = it.next().and_then(Sx::list).expect("a list");
        let (Some(name), Some(args), Some("Bool")) = (
            l.get(1).and_then(Sx::atom),
            l.get(2).and_then(Sx::list),
            l.get(3).and_then(Sx::atom),
        ) else {
            return Err(format!("a bad declaration: {l:?}"));
        };
        if !args.iter().all(is_sort) {
            return Err(format!("a bad sort in the declaration of {name}"));
        }
        if preds.insert(name.to_string(), args.len()).is_some() {
            return Err(format!("{name} is declared twice"));
        }
    }
    if preds.is_empty() {
        return Err("no predicate is declared".into());
    }
    let (mut clauses, mut queries) = (0, 0);
    while it.peek().and_then(|f| head(f)).as_deref() == Some("assert") {
        let l = it.next().and_then(Sx::list).expect("a list");
        let [_, Sx::List(q)] = l else {
            return Err(format!("a bad assertion: {l:?}"));
        };
        let [Sx::Atom(forall), Sx::List(decls), body] = q.as_slice() else {
            return Err(format!("an assertion that is no forall: {q:?}"));
        };
        if forall != "forall" || decls.is_empty() {
            return Err("an assertion that is no forall with variables".into());
        }
        let mut vars = BTreeSet::new();
        for d in decls {
            match d.list() {
                Some([Sx::Atom(v), s]) if is_sort(s) => {
                    if !vars.insert(v.clone()) {
                        return Err(format!("{v} is bound twice"));
                    }
                }
                _ => return Err(format!("a bad variable declaration {d:?}")),
            }
        }
        let (tail, hd) = match body.list() {
            Some([Sx::Atom(imp), tail, hd]) if imp == "=>" => (Some(tail), hd),
            _ => (None, body),
        };
        // The head: false (a query) or a predicate on distinct variables.
        match hd {
            Sx::Atom(f) if f == "false" && tail.is_some() => queries += 1,
            _ => atom(hd, &preds, &vars, true)?,
        }
        if let Some(t) = tail {
            let items: Vec<&Sx> = match t.list() {
                Some([Sx::Atom(a), rest @ ..]) if a == "and" => rest.iter().collect(),
                _ => vec![t],
            };
            for i in items {
                if head(i).is_some_and(|h| preds.contains_key(&h))
                    || i.atom().is_some_and(|a| preds.contains_key(a))
                {
                    atom(i, &preds, &vars, false)?;
                } else {
                    constraint(i, &preds, &vars)?;
                }
            }
        }
        clauses += 1;
    }
    let rest: Vec<String> = it.filter_map(head).collect();
    if rest != ["check-sat", "exit"] {
        return Err(format!(
            "after the clauses: {rest:?}, not check-sat and exit"
        ));
    }
    if queries == 0 && clauses == 0 {
        return Err("no clause".into());
    }
    Ok((clauses, queries))
}

/// A predicate atom on bound variables (distinct ones in a head).
fn atom(
    a: &Sx,
    preds: &BTreeMap<String, usize>,
    vars: &BTreeSet<String>,
    head: bool,
) -> Result<(), String> {
    let (name, args): (&str, &[Sx]) = match a {
        Sx::Atom(n) => (n, &[]),
        Sx::List(l) => match l.split_first() {
            Some((Sx::Atom(n), args)) => (n, args),
            _ => return Err(format!("a bad atom {a:?}")),
        },
    };
    let Some(&arity) = preds.get(name) else {
        return Err(format!("{name} is not a declared predicate"));
    };
    if args.len() != arity {
        return Err(format!(
            "{name} takes {arity} arguments, given {}",
            args.len()
        ));
    }
    let mut seen = BTreeSet::new();
    for x in args {
        match x.atom() {
            Some(v) if vars.contains(v) => {
                if head && !seen.insert(v) {
                    return Err(format!("the head {name} repeats the variable {v}"));
                }
            }
            _ => return Err(format!("an argument of {name} is no bound variable: {x:?}")),
        }
    }
    Ok(())
}

/// A constraint: interpreted symbols, numerals and bound variables only.
fn constraint(
    c: &Sx,
    preds: &BTreeMap<String, usize>,
    vars: &BTreeSet<String>,
) -> Result<(), String> {
    match c {
        Sx::Atom(a) => {
            if vars.contains(a) || THEORY.contains(&a.as_str()) || a.parse::<u128>().is_ok() {
                Ok(())
            } else if preds.contains_key(a) {
                Err(format!("the predicate {a} inside a constraint"))
            } else {
                Err(format!("the free symbol {a}"))
            }
        }
        Sx::List(l) => l.iter().try_for_each(|x| constraint(x, preds, vars)),
    }
}

#[test]
fn the_reader_refuses_what_is_not_chc_comp() {
    let good = "(set-logic HORN)\n(declare-fun P (Int) Bool)\n\
                (assert (forall ((x Int)) (=> (= x 0) (P x))))\n\
                (assert (forall ((x Int)) (=> (and (P x) (> x 1)) false)))\n(check-sat)\n(exit)\n";
    assert_eq!(well_formed(good), Ok((2, 1)));
    for (bad, why) in [
        (good.replace("(exit)", "(exit"), "unbalanced"),
        (
            good.replace("(P x))))\n", "(Q x))))\n"),
            "not a declared predicate",
        ),
        (good.replace("(= x 0)", "(= y 0)"), "free symbol y"),
        (
            good.replace("(P x))))\n", "(P 0))))\n"),
            "no bound variable",
        ),
        (
            good.replace(
                "(declare-fun P (Int) Bool)",
                "(declare-fun P (Int Int) Bool)",
            ),
            "takes 2",
        ),
    ] {
        let e = well_formed(&bad).expect_err(why);
        assert!(e.contains(why), "{e}");
    }
}

// ---------------------------------------------------------------------------------------
// The programs.

/// The programs of `dir` that load (the others are the diagnostics' tests).
fn loadable(dir: &Path) -> Vec<(PathBuf, lpmc::Loaded)> {
    sources(dir)
        .into_iter()
        .filter_map(|p| lpmc::load_path(&p).ok().map(|l| (p, l)))
        .collect()
}

fn horn(loaded: &lpmc::Loaded, path: &Path, cells: Cells) -> Result<lpmc::Horn, String> {
    let opts = HornOptions {
        cells,
        check: CheckOptions {
            timeout_s: Some(10.0),
            memory_mb: common::TEST_MEMORY_MB,
            ..CheckOptions::default()
        },
    };
    lpmc::horn(loaded, &path.display().to_string(), &opts)
}

/// Every loadable program of `dir` gets well-formed clauses, or (outside the fragment)
/// an error saying why.
fn all_well_formed(dir: &Path) {
    let mut bad = Vec::new();
    let mut written = 0;
    for (path, loaded) in loadable(dir) {
        match horn(&loaded, &path, Cells::None) {
            Ok(h) => match well_formed(&h.text) {
                Ok((clauses, queries)) => {
                    assert_eq!(
                        (clauses, queries),
                        (h.clauses, h.queries),
                        "{}",
                        path.display()
                    );
                    written += 1;
                }
                Err(e) => bad.push(format!("{}: {e}", path.display())),
            },
            Err(e) if loaded.unsupported_reason().is_some() => {
                assert!(!e.is_empty());
            }
            Err(e) => bad.push(format!("{}: no clauses: {e}", path.display())),
        }
    }
    assert!(
        bad.is_empty(),
        "{} program(s):\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(written > 0, "no program in {}", dir.display());
}

#[test]
fn every_program_gets_well_formed_clauses() {
    all_well_formed(&lp_dir());
}

#[test]
fn every_shared_benchmark_gets_well_formed_clauses() {
    let dir = require_benchmarks!("every_shared_benchmark_gets_well_formed_clauses");
    all_well_formed(&dir);
}

#[test]
fn the_abstraction_cegar_found_is_array_free() {
    let path = lp_dir().join("forall/fill42.lp");
    let loaded = lpmc::load_path(&path).expect("loads");
    let h = horn(&loaded, &path, Cells::Found).expect("clauses");
    assert!(
        matches!(h.cegar, Some(lpmc::Outcome::Safe(_))),
        "{:?}",
        h.cegar
    );
    assert!(!h.text.contains("Array"), "{}", h.text);
    assert!(h.text.contains("satisfiable implies SAFE"), "{}", h.text);
    assert!(h.text.contains("ghost indices: k#"), "{}", h.text);
    well_formed(&h.text).expect("well formed");
    let none = horn(&loaded, &path, Cells::None).expect("clauses");
    assert!(none.text.contains("(Array Int Int)"));
    assert!(none
        .text
        .contains("satisfiable exactly when the program is SAFE"));
}

#[test]
fn a_calls_entry_clause_does_not_assume_its_own_summary() {
    // count(n) returns n: were the clause that enters count to assume count's summary at
    // that very call, no state would enter it (its summary needs an entry first), and
    // the clauses would be satisfiable although the program is UNSAFE.
    let path = lp_dir().join("horn/call_loop_under_branch_unsafe.lp");
    let loaded = lpmc::load_path(&path).expect("loads");
    let h = horn(&loaded, &path, Cells::None).expect("clauses");
    let entering: Vec<&str> = h
        .text
        .split("\n\n")
        .filter(|c| c.contains("to a call of count"))
        .collect();
    assert!(!entering.is_empty(), "{}", h.text);
    for c in entering {
        assert!(!c.contains("(count_call "), "{c}");
    }
    // The query after the call assumes it.
    let query = h
        .text
        .split("\n\n")
        .find(|c| c.contains("an error location (line 20)"))
        .expect("the query of the assertion after the call");
    assert!(query.contains("(count_call "), "{query}");
}

#[test]
fn bad_input_gets_a_diagnostic_and_exit_2() {
    let lpmc = env!("CARGO_BIN_EXE_lpmc");
    let path = lp_dir().join("errors/undeclared_variable.lp");
    let out = Command::new(lpmc)
        .arg("horn")
        .arg(&path)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("undeclared_variable.lp:6:7"), "{err}");
    let out = Command::new(lpmc)
        .args(["horn", "no-such-file.c"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = Command::new(lpmc)
        .args(["horn", "--cells", "some"])
        .arg(lp_dir().join("fig1.lp"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    // The output file, and the front end's options as `check` takes them.
    let dir = target_dir().join("horn-cli");
    std::fs::create_dir_all(&dir).expect("a folder");
    let file = dir.join("fig1.smt2");
    let out = Command::new(lpmc)
        .args(["horn", "--array-bounds", "error", "-o"])
        .arg(&file)
        .arg(lp_dir().join("fig1.lp"))
        .output()
        .expect("runs");
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&file).expect("written");
    assert!(
        text.contains("an out-of-bounds array access is an error"),
        "{text}"
    );
    well_formed(&text).expect("well formed");
}

// ---------------------------------------------------------------------------------------
// Spacer.

/// What Z3 said of a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Z3 {
    Sat,
    Unsat,
    NoAnswer,
}

/// Run Z3 on `file` with its time limit (killed past twice that).
fn z3(bin: &Path, file: &Path) -> Z3 {
    let mut child = Command::new(bin)
        .arg(format!("-T:{Z3_SECONDS}"))
        .arg(file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("z3 runs");
    let t0 = Instant::now();
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        if t0.elapsed() > Duration::from_secs(2 * Z3_SECONDS + 5) {
            let _ = child.kill();
            let _ = child.wait();
            return Z3::NoAnswer;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("z3's output");
    match String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .map(str::trim)
    {
        Some("sat") => Z3::Sat,
        Some("unsat") => Z3::Unsat,
        _ => Z3::NoAnswer,
    }
}

/// A fixed-seed hash (FNV-1a) of a path, for the sample.
fn rank(p: &Path) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ SEED;
    for b in p.to_string_lossy().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The `n` programs of `all` first by rank (all of them with `LPMC_HORN_ALL=1`).
fn sample(mut all: Vec<PathBuf>, n: usize) -> Vec<PathBuf> {
    if std::env::var("LPMC_HORN_ALL").is_ok_and(|v| v == "1") {
        return all;
    }
    all.sort_by_key(|p| rank(p));
    all.truncate(n);
    all.sort();
    all
}

/// A program, with the data model of the task file beside it (as its expected verdict
/// is the task's).
fn load_task(path: &Path) -> Option<lpmc::Loaded> {
    let mut opts = lpmc::LoadOptions::default();
    if let Ok(t) = lpmc::Task::read(&path.with_extension("yml")) {
        opts.data_model = t.data_model;
    }
    lpmc::load_path_with(path, &opts).ok()
}

#[derive(Default)]
struct Tally {
    sat: usize,
    unsat: usize,
    none: usize,
    disagree: Vec<String>,
}

#[test]
fn spacer_agrees_with_the_expected_verdicts() {
    const TEST: &str = "spacer_agrees_with_the_expected_verdicts";
    let Some(python) = venv("horn-venv", "z3-solver", "z3", TEST) else {
        return;
    };
    let bin = python.parent().expect("the venv's bin").join("z3");
    assert!(
        bin.is_file(),
        "z3-solver installs no z3 at {}",
        bin.display()
    );
    let dir = target_dir().join("horn-spacer");
    std::fs::create_dir_all(&dir).expect("a folder");
    let mut programs: Vec<PathBuf> = sources(&lp_dir());
    if let Some(b) = bench_dir() {
        programs.extend(sources(&b));
    }
    programs.retain(|p| lpmc::expected_safe_for(p).is_some());
    let forall: Vec<PathBuf> = programs
        .iter()
        .filter(|p| p.starts_with(lp_dir().join("forall")))
        .cloned()
        .collect();
    // The abstractions of lp-programs/horn/ and of a sample of forall/.
    let mut found: Vec<PathBuf> = sources(&lp_dir().join("horn"));
    found.extend(sample(forall, SAMPLE_FOUND));
    // lp-programs/horn/ always, and a sample of the others.
    let mut none: Vec<PathBuf> = sources(&lp_dir().join("horn"));
    programs.retain(|p| !none.contains(p));
    none.extend(sample(programs, SAMPLE_NONE));
    let mut tallies = Vec::new();
    for (cells, progs) in [(Cells::None, none), (Cells::Found, found)] {
        let mut t = Tally::default();
        for (i, path) in progs.iter().enumerate() {
            let expected_safe = lpmc::expected_safe_for(path).expect("retained");
            let Some(loaded) = load_task(path) else {
                continue;
            };
            let Ok(h) = horn(&loaded, path, cells) else {
                t.none += 1;
                continue;
            };
            let file = dir.join(format!("{}-{i}.smt2", cells.as_str()));
            std::fs::write(&file, &h.text).expect("written");
            let answer = z3(&bin, &file);
            let wrong = match (answer, cells) {
                (Z3::Sat, _) => !expected_safe,
                (Z3::Unsat, Cells::None) => expected_safe,
                _ => false,
            };
            match answer {
                Z3::Sat => t.sat += 1,
                Z3::Unsat => t.unsat += 1,
                Z3::NoAnswer => t.none += 1,
            }
            if wrong {
                t.disagree.push(format!(
                    "{} (--cells {}): Z3 {answer:?}, expected {}",
                    path.display(),
                    cells.as_str(),
                    if expected_safe { "safe" } else { "unsafe" }
                ));
            }
        }
        eprintln!(
            "horn --cells {}: {} program(s), Z3 sat {}, unsat {}, no answer {}, disagreements {}",
            cells.as_str(),
            progs.len(),
            t.sat,
            t.unsat,
            t.none,
            t.disagree.len()
        );
        tallies.push(t);
    }
    let disagree: Vec<&String> = tallies.iter().flat_map(|t| &t.disagree).collect();
    assert!(disagree.is_empty(), "Z3 disagrees:\n{disagree:#?}");
    let decided = tallies[0].sat + tallies[0].unsat;
    assert!(
        decided >= 3,
        "Z3 decided only {decided} program(s) with --cells none"
    );
    assert!(
        tallies[1].sat >= 1,
        "Z3 proved no abstraction with --cells found"
    );
}
