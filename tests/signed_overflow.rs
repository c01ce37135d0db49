//! Signed overflow as C defines it (`--signed-overflow undefined|wrap|error`): our
//! programs with `// expect-wrap:` and `// expect-error:` headers give those verdicts under
//! the other two settings (`overflow`: an UNSAFE whose error is the overflow itself), a
//! SAFE verdict under `undefined` names exactly the lines of its `// assumes:` header, the
//! interpreter stops at an undefined overflow, and `.lp` files never overflow.

mod common;

use common::{header, lp_dir, sources};
use lpmc::{
    bmc, load_path_with, load_with, run_inputs, BmcOptions, CheckOptions, EngineChoice,
    LoadOptions, Loaded, Outcome, RunOutcome, SignedOverflow, SourceFile, Unwind, Verdict,
};
use std::path::{Path, PathBuf};

fn opts(signed_overflow: SignedOverflow) -> LoadOptions {
    LoadOptions {
        signed_overflow,
        ..LoadOptions::default()
    }
}

fn load(path: &Path, s: SignedOverflow) -> Loaded {
    load_path_with(path, &opts(s))
        .unwrap_or_else(|e| panic!("{} does not load:\n{}", path.display(), e.render(false)))
}

fn load_text(text: &str, s: SignedOverflow) -> Loaded {
    load_with(SourceFile::new("t.c", text), &opts(s)).expect("the program loads")
}

fn portfolio(loaded: &Loaded) -> lpmc::Report {
    lpmc::portfolio(
        loaded,
        &CheckOptions {
            timeout_s: Some(30.0),
            ..CheckOptions::default()
        },
        EngineChoice::All,
    )
}

/// The programs with a `// key:` header.
fn with_header(key: &str) -> Vec<PathBuf> {
    sources(&lp_dir())
        .into_iter()
        .filter(|p| header(p, key).is_some())
        .collect()
}

/// Whether an outcome is what a header value says: `safe`, `unsafe`, or `overflow` (an
/// UNSAFE whose error is a signed overflow).
fn matches(o: &Outcome, want: &str) -> bool {
    match want {
        "overflow" => o.counterexample().is_some_and(|c| c.overflow_error),
        "unsafe" => o.verdict() == Verdict::Unsafe,
        "safe" => o.verdict() == Verdict::Safe,
        other => panic!("unknown expectation `{other}`"),
    }
}

#[test]
fn programs_give_their_verdicts_under_wrap_and_error() {
    let mut wrong = Vec::new();
    let mut n = 0;
    for (key, setting) in [
        ("expect-wrap", SignedOverflow::Wrap),
        ("expect-error", SignedOverflow::Error),
    ] {
        for p in with_header(key) {
            let want = header(&p, key).unwrap();
            let r = portfolio(&load(&p, setting));
            n += 1;
            // No engine may contradict the expectation, and the portfolio must decide.
            let want_verdict = if want == "safe" {
                Verdict::Safe
            } else {
                Verdict::Unsafe
            };
            for e in &r.engines {
                if e.verdict != Verdict::Unknown && e.verdict != want_verdict {
                    wrong.push(format!(
                        "{} ({key}): the {} engine said {:?}",
                        p.display(),
                        e.engine.as_str(),
                        e.verdict
                    ));
                }
            }
            if !matches(&r.outcome, &want) {
                wrong.push(format!(
                    "{} ({key}): expected {want}, got {}",
                    p.display(),
                    r.outcome.reason()
                ));
            }
            // Under wrap, an error that no defined execution reaches is reached through a
            // wrapped signed overflow, and the counterexample says where.
            if let (SignedOverflow::Wrap, Some(c)) = (setting, r.outcome.counterexample()) {
                let through = header(&p, "expect") == Some("safe".into());
                if through && c.signed_overflow_line.is_none() {
                    wrong.push(format!(
                        "{} (wrap): signed_overflow_line {:?}",
                        p.display(),
                        c.signed_overflow_line
                    ));
                }
            }
        }
    }
    assert!(n >= 16, "only {n} checks");
    assert!(wrong.is_empty(), "wrong verdicts:\n{}", wrong.join("\n"));
}

#[test]
fn safe_verdicts_name_the_overflows_they_assume_away() {
    let progs = with_header("assumes");
    assert!(progs.len() >= 4, "only {} programs", progs.len());
    for p in progs {
        let want: Vec<u32> = match header(&p, "assumes").unwrap().as_str() {
            "none" => Vec::new(),
            list => list.split(',').map(|l| l.trim().parse().unwrap()).collect(),
        };
        let r = portfolio(&load(&p, SignedOverflow::Undefined));
        let Outcome::Safe(proof) = &r.outcome else {
            panic!("{}: {}", p.display(), r.outcome.reason());
        };
        assert_eq!(proof.assumed_no_overflow, want, "{}", p.display());
        let headline = r.outcome.headline();
        if want.is_empty() {
            assert_eq!(headline, "SAFE");
        } else {
            assert!(
                headline.starts_with("SAFE, assuming no signed overflow (undefined in C) at line")
                    && headline.contains("--signed-overflow error"),
                "{headline}"
            );
        }
        // `--json` carries the semantics and the lines.
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["semantics"]["signed_overflow"], "undefined");
        let lines = &json["proof"]["assumed_no_overflow"];
        let lines = lines.as_array().cloned().unwrap_or_default();
        assert_eq!(lines.len(), want.len(), "{json}");
        // Under `wrap` and `error` nothing is assumed.
        for s in [SignedOverflow::Wrap, SignedOverflow::Error] {
            if let Outcome::Safe(proof) = &portfolio(&load(&p, s)).outcome {
                assert!(proof.assumed_no_overflow.is_empty(), "{}", p.display());
            }
        }
    }
}

const UB: &str = "extern int __VERIFIER_nondet_int(void);
void reach_error() {}
int main() {
  int x = __VERIFIER_nondet_int();
  if (x < 2147483647) return 0;
  x = x + 1;
  if (x < 0) reach_error();
  return 0;
}";

#[test]
fn the_interpreter_stops_at_an_undefined_overflow() {
    let max = || vec![2147483647.into()];
    let r = run_inputs(&load_text(UB, SignedOverflow::Undefined), max(), 100);
    assert_eq!(r.outcome, RunOutcome::Undefined { line: 6 });
    assert!(r.outcome.describe(100).contains("undefined behaviour"));
    let r = run_inputs(&load_text(UB, SignedOverflow::Wrap), max(), 100);
    assert_eq!(r.outcome, RunOutcome::Error { line: 7 });
    // Under `error` the overflow is the error, at its own line.
    let r = run_inputs(&load_text(UB, SignedOverflow::Error), max(), 100);
    assert_eq!(r.outcome, RunOutcome::Error { line: 6 });
    // Below the maximum, nothing overflows.
    let r = run_inputs(
        &load_text(UB, SignedOverflow::Undefined),
        vec![5.into()],
        100,
    );
    assert_eq!(r.outcome, RunOutcome::Finished);
}

/// An overflow under `?:`, `&&` or `||` ends only the executions that evaluate it: the
/// CEGAR engine (its trace check), bmc and the portfolio all find the error that skips it.
#[test]
fn only_evaluated_overflows_end_an_execution() {
    let src = "extern int __VERIFIER_nondet_int(void);
void reach_error() {}
int main() {
  int x = __VERIFIER_nondet_int();
  int c = __VERIFIER_nondet_int();
  int y = c ? x + 1 : 0;
  int z = !c || x + 1 > 0;
  int w = c && x + 1 > 0;
  if (c == 0 && x == 2147483647) reach_error();
  return 0;
}";
    for s in [SignedOverflow::Undefined, SignedOverflow::Wrap] {
        let loaded = load_text(src, s);
        let r = lpmc::check(
            &loaded,
            &CheckOptions {
                timeout_s: Some(30.0),
                ..CheckOptions::default()
            },
        );
        assert_eq!(
            r.verdict(),
            Verdict::Unsafe,
            "{s:?}: {}",
            r.outcome.reason()
        );
        let b = bmc(
            &loaded,
            &BmcOptions {
                unwind: Unwind::Fixed(1),
                timeout_s: Some(30.0),
                ..BmcOptions::default()
            },
        );
        assert_eq!(
            b.verdict(),
            Verdict::Unsafe,
            "{s:?}: {}",
            b.outcome.reason()
        );
    }
    // With c != 0, `c ? x + 1 : 0` evaluates x + 1: at INT_MAX it is undefined.
    let src = src.replace("c == 0 &&", "c != 0 &&");
    let r = portfolio(&load_text(&src, SignedOverflow::Undefined));
    assert_eq!(r.verdict(), Verdict::Safe, "{}", r.outcome.reason());
    let r = portfolio(&load_text(&src, SignedOverflow::Wrap));
    assert_eq!(r.verdict(), Verdict::Unsafe, "{}", r.outcome.reason());
}

/// The bounded engine's SAFE names the assumption too.
#[test]
fn bmc_names_the_assumption() {
    let b = bmc(
        &load_text(UB, SignedOverflow::Undefined),
        &BmcOptions {
            unwind: Unwind::Fixed(1),
            timeout_s: Some(30.0),
            ..BmcOptions::default()
        },
    );
    let Outcome::Safe(proof) = &b.outcome else {
        panic!("{}", b.outcome.reason());
    };
    assert_eq!(proof.assumed_no_overflow, vec![6]);
}

/// `.lp` files use mathematical integers, whatever the setting.
#[test]
fn lp_files_never_overflow() {
    let src = "void main() { int x; assume(x >= 2147483647); x = x + 1; if (x < 0) { ERROR: ; } }";
    for s in [
        SignedOverflow::Undefined,
        SignedOverflow::Wrap,
        SignedOverflow::Error,
    ] {
        let loaded = load_with(SourceFile::new("t.lp", src), &opts(s)).unwrap();
        assert_eq!(loaded.semantics().signed_overflow, None);
        let r = portfolio(&loaded);
        let Outcome::Safe(proof) = &r.outcome else {
            panic!("{s:?}: {}", r.outcome.reason());
        };
        assert!(proof.assumed_no_overflow.is_empty());
    }
}
