//! Witnesses and certificates: every SAFE and UNSAFE verdict writes an SV-COMP witness
//! (format 2.0) that passes the schema (`contrib/witness/witness-2.0.schema.json`) and
//! `lpmc validate`; broken witnesses (a wrong value, a wrong invariant, another file) are
//! rejected; a planted wrong invariant is refused by the certificate check.
//!
//! The default suite checks a sample (fixed seed) of `lp-programs/`, of the shared
//! benchmarks (svcomp, svcomp-extra, eureka) and of `../shared/c-in-the-wild`;
//! `LPMC_WITNESS_ALL=1` checks every program (release mode recommended:
//! `LPMC_WITNESS_ALL=1 cargo test --release --test witness every_verdict -- --nocapture`
//! prints one line per program).

mod common;

use common::{bench_dir, lp_dir, sources, wild_dir};
use lpmc::{CheckOptions, EngineChoice, Formula, GiveUp, Outcome, RowBound};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Seconds per check.
const TIMEOUT_S: &str = "5";
/// The sample's seed.
const SEED: u64 = 20261127;

fn lpmc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lpmc"))
}

fn schema() -> jsonschema::Validator {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("contrib/witness/witness-2.0.schema.json");
    let text = std::fs::read_to_string(&path).expect("the schema is there");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the schema compiles")
}

/// The schema's errors for a witness text, and what it cannot say: a violation
/// witness's segments each end with their one `follow` waypoint, and the last one with
/// the target.
fn problems(validator: &jsonschema::Validator, text: &str) -> Vec<String> {
    let json = match lpmc::witness_json(text) {
        Ok(j) => j,
        Err(e) => return vec![format!("not YAML: {e}")],
    };
    let mut out: Vec<String> = validator
        .iter_errors(&json)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    for entry in json.as_array().into_iter().flatten() {
        if entry["entry_type"] != "violation_sequence" {
            continue;
        }
        let segments = entry["content"].as_array().cloned().unwrap_or_default();
        for (i, seg) in segments.iter().enumerate() {
            let ws = seg["segment"].as_array().cloned().unwrap_or_default();
            let follows: Vec<usize> = ws
                .iter()
                .enumerate()
                .filter(|(_, w)| w["waypoint"]["action"] == "follow")
                .map(|(k, _)| k)
                .collect();
            if follows != [ws.len() - 1] {
                out.push(format!("segment {i}: not one follow waypoint at its end"));
            }
            let last = &ws[ws.len() - 1]["waypoint"]["type"];
            if (i + 1 == segments.len()) != (last == "target") {
                out.push(format!(
                    "segment {i}: the target must end the last segment only"
                ));
            }
        }
    }
    out
}

/// Check `file`, write its witness, and test the witness: schema, then `lpmc validate`.
/// Returns the verdict word (`unreadable` for a program the front end rejects, when
/// `may_reject`), or an error.
fn round_trip(
    validator: &jsonschema::Validator,
    file: &Path,
    dir: &Path,
    may_reject: bool,
) -> Result<String, String> {
    let w = dir.join(format!(
        "{}.witness.yml",
        file.file_name().unwrap().to_string_lossy()
    ));
    let out = lpmc()
        .args(["check", "--timeout", TIMEOUT_S, "--witness"])
        .arg(&w)
        .arg(file)
        .output()
        .expect("lpmc runs");
    let verdict = match out.status.code() {
        Some(0) => "safe",
        Some(10) => "unsafe",
        Some(20) => return Ok("unknown".into()),
        Some(2) if may_reject => return Ok("unreadable".into()),
        c => {
            return Err(format!(
                "{}: exit {c:?}: {}",
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    };
    let text =
        std::fs::read_to_string(&w).map_err(|e| format!("{}: no witness: {e}", file.display()))?;
    let p = problems(validator, &text);
    if !p.is_empty() {
        return Err(format!(
            "{}: the witness breaks the schema: {p:?}\n{text}",
            file.display()
        ));
    }
    // A safety net, not a measure: the replay's own bound is counted steps. The largest
    // witness of the sample (a search's run with 200 000 inputs, one waypoint each) takes
    // seconds to read, monitor and replay, and the sample's tests share two cores.
    let v = lpmc()
        .args(["validate", "--timeout", "60", "--witness"])
        .arg(&w)
        .arg(file)
        .output()
        .expect("lpmc runs");
    if v.status.code() != Some(0) {
        return Err(format!(
            "{} ({verdict}): validate exit {:?}: {}",
            file.display(),
            v.status.code(),
            String::from_utf8_lossy(&v.stdout)
        ));
    }
    Ok(verdict.into())
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("lpmc-witness-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}

/// The programs of a suite: all with `LPMC_WITNESS_ALL`, else `n` of them drawn with
/// the fixed seed.
fn sample(mut files: Vec<PathBuf>, n: usize) -> Vec<PathBuf> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    files.sort();
    if std::env::var_os("LPMC_WITNESS_ALL").is_some() {
        return files;
    }
    let mut rng = rand::rngs::SmallRng::seed_from_u64(SEED);
    let mut picked: Vec<PathBuf> = files.choose_multiple(&mut rng, n).cloned().collect();
    picked.sort();
    picked
}

#[test]
fn every_verdict_of_a_sample_writes_a_witness_that_passes_the_schema_and_validate() {
    let validator = schema();
    let dir = tmp("sample");
    let all = std::env::var_os("LPMC_WITNESS_ALL").is_some();
    // (program, whether the front end may reject it)
    let mut files: Vec<(PathBuf, bool)> = sample(sources(&lp_dir()), 24)
        .into_iter()
        .filter(|f| !f.components().any(|c| c.as_os_str() == "errors"))
        .map(|f| (f, false))
        .collect();
    if !all {
        files.push((lp_dir().join("fig1.lp"), false));
        files.push((lp_dir().join("array_any_index_off_by_one.lp"), false));
        // A violation witness giving an array cell's initial value (at the declaration)
        // that the run reads only late, after other inputs.
        files.push((lp_dir().join("forall/partition_unsafe.lp"), false));
    }
    if let Some(b) = bench_dir() {
        files.extend(sample(sources(&b), 10).into_iter().map(|f| (f, false)));
        if !all {
            files.push((b.join("svcomp/loop-lit/gsv2008.i"), false));
            // A counterexample through accelerated loops of 2^32 - 3 iterations: the
            // validator's run takes them at once.
            files.push((b.join("svcomp/loop-simple/deep-nested.c"), false));
        }
    } else {
        common::skip("the shared benchmarks' part of the witness round trip");
    }
    if let Some(w) = wild_dir() {
        files.extend(sample(sources(&w), 3).into_iter().map(|f| (f, true)));
    }
    let mut errors = Vec::new();
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    for (f, may_reject) in &files {
        let t0 = std::time::Instant::now();
        let r = round_trip(&validator, f, &dir, *may_reject);
        let word = match &r {
            Ok(v) => v.clone(),
            Err(_) => "FAILED".into(),
        };
        if all {
            eprintln!(
                "{word:10} {:6} ms  {}",
                t0.elapsed().as_millis(),
                f.display()
            );
        }
        *counts.entry(word).or_default() += 1;
        if let Err(e) = r {
            errors.push(e);
        }
    }
    eprintln!(
        "witness round trip over {} programs: {counts:?}",
        files.len()
    );
    assert!(
        errors.is_empty(),
        "{} failure(s):\n{}",
        errors.len(),
        errors.join("\n")
    );
    let decided = counts.get("safe").unwrap_or(&0) + counts.get("unsafe").unwrap_or(&0);
    assert!(decided >= 5, "only {decided} decided programs");
}

fn write_witness(file: &Path, dir: &Path) -> String {
    let w = dir.join("w.yml");
    let out = lpmc()
        .args(["check", "--witness"])
        .arg(&w)
        .arg(file)
        .output()
        .expect("lpmc runs");
    assert!(matches!(out.status.code(), Some(0 | 10)), "{out:?}");
    std::fs::read_to_string(&w).expect("a witness")
}

/// The witness of the CEGAR engine's proof (the portfolio's bounded engine may prove a
/// small program first, with no invariants to write).
fn write_cegar_witness(file: &Path, dir: &Path) -> String {
    let w = dir.join("w.yml");
    let out = lpmc()
        .args(["check", "--engine", "cegar", "--witness"])
        .arg(&w)
        .arg(file)
        .output()
        .expect("lpmc runs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    std::fs::read_to_string(&w).expect("a witness")
}

fn validate(file: &Path, dir: &Path, text: &str) -> (Option<i32>, String) {
    let w = dir.join("broken.yml");
    std::fs::write(&w, text).expect("writes");
    let v = lpmc()
        .args(["validate", "--witness"])
        .arg(&w)
        .arg(file)
        .output()
        .expect("lpmc runs");
    (
        v.status.code(),
        String::from_utf8_lossy(&v.stdout).to_string(),
    )
}

#[test]
fn a_violation_witness_with_a_wrong_value_is_rejected() {
    let dir = tmp("wrong-value");
    let file = lp_dir().join("array_any_index_off_by_one.lp");
    let text = write_witness(&file, &dir);
    assert_eq!(
        validate(&file, &dir, &text).0,
        Some(0),
        "the witness itself is confirmed"
    );
    // `k = u` must draw 5 (the only index out of range) for the run to reach the
    // error; with 3 the read is in range and equals 7, and no run matches.
    let at = text
        .rfind("result == 5")
        .unwrap_or_else(|| panic!("no `\\result == 5`: {text}"));
    let broken = format!(
        "{}result == 3{}",
        &text[..at],
        &text[at + "result == 5".len()..]
    );
    let (code, out) = validate(&file, &dir, &broken);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("REJECTED"), "{out}");
}

#[test]
fn a_correctness_witness_with_a_wrong_or_foreign_invariant_is_rejected() {
    let dir = tmp("wrong-invariant");
    let file = lp_dir().join("fig1.lp");
    let text = write_cegar_witness(&file, &dir);
    assert_eq!(validate(&file, &dir, &text).0, Some(0));
    // Fig. 1's invariant `0 <= i && i <= 1`, narrowed: not inductive (i reaches 1).
    assert!(text.contains("i <= 1"), "{text}");
    let (code, out) = validate(&file, &dir, &text.replace("i <= 1", "i <= 0"));
    assert_eq!(code, Some(1), "{out}");
    // A cell value that the loop head never sees.
    let (code, out) = validate(&file, &dir, &text.replace("a[1] == 1", "a[1] == 2"));
    assert_eq!(code, Some(1), "{out}");
    // The witness of another program.
    let other = lp_dir().join("array_copy.lp");
    let (code, out) = validate(&other, &dir, &text);
    assert_ne!(code, Some(0), "{out}");
}

/// The loop head's formula of `file`'s CEGAR proof, changed by `plant`: refused.
fn planted(file: &str, plant: &dyn Fn(&mut Formula) -> bool) -> (Outcome, Outcome) {
    let loaded = lpmc::load_path(&lp_dir().join(file)).expect("loads");
    let opts = CheckOptions::default();
    let report = lpmc::portfolio(&loaded, &opts, EngineChoice::Cegar);
    let Outcome::Safe(proof) = report.outcome.clone() else {
        panic!("{file}: {}", report.outcome.reason());
    };
    let certificate = proof.certificate.clone().expect("a certified proof");
    assert!(certificate.checked(), "{certificate:?}");
    let mut wrong = proof.clone();
    wrong.certificate = None;
    let mut changed = false;
    for p in &mut wrong.invariants.points {
        if matches!(p.point, lpmc::InvariantPoint::LoopHead { .. }) {
            changed |= plant(&mut p.formula);
        }
    }
    assert!(changed, "nothing planted in {file}");
    let solvers = lpmc::smt::cvc5_solvers();
    let deadline = lpmc::Deadline::none();
    let mut right = proof;
    right.certificate = None;
    (
        lpmc::certified(&loaded, Outcome::Safe(right), &solvers, &deadline),
        lpmc::certified(&loaded, Outcome::Safe(wrong), &solvers, &deadline),
    )
}

/// Tighten the upper bound of every row over `name` by one.
fn tighten(f: &mut Formula, name: &str) -> bool {
    match f {
        Formula::Row(r) => {
            if r.terms.iter().any(|(_, t)| t.name == name) {
                if let Some(RowBound { value, .. }) = &mut r.hi {
                    *value -= num_rational::BigRational::from_integer(1.into());
                    return true;
                }
            }
            false
        }
        Formula::And(fs) | Formula::Or(fs) => {
            fs.iter_mut().fold(false, |a, f| tighten(f, name) | a)
        }
        Formula::Implies(a, b) => tighten(a, name) | tighten(b, name),
        Formula::Forall(_, b) => tighten(b, name),
        Formula::Cong(..) => false,
    }
}

/// Shift the residue of every congruence over `name` by one.
fn shift_residue(f: &mut Formula, name: &str) -> bool {
    match f {
        Formula::Cong(t, r, m) if t.name == name => {
            *r = (&*r + 1u32) % &*m;
            true
        }
        Formula::And(fs) | Formula::Or(fs) => {
            fs.iter_mut().fold(false, |a, f| shift_residue(f, name) | a)
        }
        Formula::Implies(a, b) => shift_residue(a, name) | shift_residue(b, name),
        Formula::Forall(_, b) => shift_residue(b, name),
        _ => false,
    }
}

#[test]
fn a_planted_wrong_congruence_is_refused_by_the_certificate_check() {
    // The loop's invariant says `i ≡ 0 (mod 2)`; `i ≡ 1 (mod 2)` is not inductive.
    let (right, wrong) = planted("cong_step2_parity.lp", &|f| shift_residue(f, "i"));
    assert!(matches!(right, Outcome::Safe(_)), "{}", right.reason());
    assert!(
        matches!(wrong, Outcome::Unknown(GiveUp::Certificate(_))),
        "{}",
        wrong.reason()
    );
}

#[test]
fn a_planted_wrong_invariant_is_refused_by_the_certificate_check() {
    let (right, wrong) = planted("fig1.lp", &|f| tighten(f, "i"));
    assert!(matches!(right, Outcome::Safe(_)), "{}", right.reason());
    match wrong {
        Outcome::Unknown(GiveUp::Certificate(why)) => {
            assert!(why.contains("loop at line 7"), "{why}")
        }
        o => panic!("a wrong invariant was accepted: {}", o.reason()),
    }
}

#[test]
fn a_planted_wrong_forall_invariant_is_refused_for_an_arbitrary_ghost() {
    // The ∀-invariant of the init-then-check loop with `a[k]` narrowed.
    let (right, wrong) = planted("sym_init_check.lp", &|f| tighten(f, "a[k]"));
    assert!(matches!(right, Outcome::Safe(_)), "{}", right.reason());
    assert!(
        matches!(wrong, Outcome::Unknown(GiveUp::Certificate(_))),
        "a wrong ∀-invariant was accepted: {}",
        wrong.reason()
    );
}

#[test]
fn a_safe_json_reports_its_certificate() {
    let out = lpmc()
        .args(["check", "--json"])
        .arg(lp_dir().join("fig1.lp"))
        .output()
        .expect("lpmc runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["verdict"], "safe");
    assert_eq!(v["proof"]["certificate"]["status"], "checked", "{v}");
    assert!(v["proof"]["certificate"]["obligations"].as_u64() > Some(0));
}

#[test]
fn gsv2008s_safe_reason_fits_on_three_lines() {
    let b = require_benchmarks!("gsv2008s_safe_reason_fits_on_three_lines");
    let file = b.join("svcomp/loop-lit/gsv2008.i");
    let out = lpmc()
        .args(["check", "--json"])
        .arg(&file)
        .output()
        .expect("lpmc runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["verdict"], "safe", "{v}");
    let reason = v["reason"].as_str().expect("a reason");
    // Three lines of 80 columns.
    assert!(reason.chars().count() <= 240, "{reason}");
    let (_, invariant) = reason
        .split_once("loop at line 15: ")
        .unwrap_or_else(|| panic!("no loop invariant: {reason}"));
    assert!(invariant.matches(" ∨ ").count() <= 2, "{invariant}");
    assert!(
        !invariant.contains('$') && !invariant.contains('#'),
        "internal names: {invariant}"
    );
    // The witness says the same in C.
    let dir = tmp("gsv2008");
    let text = write_witness(&file, &dir);
    let value = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("value: "))
        .unwrap_or_else(|| panic!("no invariant: {text}"));
    assert!(value.matches(" || ").count() <= 2, "{value}");
}

/// The hand-written violation witnesses of `tests/witnesses/` (programs with loops,
/// branches, `switch`, `?:` and calls): each file's first line says whether it is valid
/// (CONFIRMED, exit 0), invalid (REJECTED, exit 1) or bad input (a waypoint at no
/// location of the program, exit 2). The programs are small enough that the bounded
/// engine decides each monitored program in a few unwindings; the time limit is only a
/// safety net.
#[test]
fn hand_written_violation_witnesses_are_confirmed_or_rejected_as_the_format_defines() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/witnesses");
    let mut witnesses: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/witnesses")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yml"))
        .collect();
    witnesses.sort();
    assert!(witnesses.len() >= 20, "{witnesses:?}");
    let mut errors = Vec::new();
    for w in &witnesses {
        let text = std::fs::read_to_string(w).expect("reads");
        let first = text.lines().next().unwrap_or_default();
        let expected = if first.starts_with("# valid") {
            0
        } else if first.starts_with("# invalid") {
            1
        } else if first.starts_with("# bad input") {
            2
        } else {
            panic!(
                "{}: the first line says neither valid, invalid nor bad input",
                w.display()
            );
        };
        let program = text
            .split("file_name: ")
            .nth(1)
            .and_then(|s| s.split([',', '}']).next())
            .unwrap_or_else(|| panic!("{}: no file_name", w.display()));
        let out = lpmc()
            .args(["validate", "--timeout", "60", "--witness"])
            .arg(w)
            .arg(dir.join(program))
            .output()
            .expect("lpmc runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(expected) {
            errors.push(format!(
                "{}: exit {:?}, expected {expected}\n{stdout}{stderr}",
                w.display(),
                out.status.code()
            ));
        }
        // Bad input names the waypoint by line and column.
        if expected == 2 && !stderr.contains(" at 9:3 ") {
            errors.push(format!("{}: {stderr}", w.display()));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// The issue's example: a branch-only witness whose run is not the one with every input 0
/// is confirmed; one that leaves the loop at its first test (no `true` before the
/// `false`, an `avoid` waypoint) is rejected.
#[test]
fn the_issues_example_is_decided_by_the_monitor_through_the_api() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/witnesses");
    let program = dir.join("loops.c");
    let loaded = lpmc::load_path_with(
        &program,
        &lpmc::LoadOptions {
            no_accel: true,
            ..Default::default()
        },
    )
    .expect("loads");
    let opts = lpmc::ValidateOptions {
        accelerate: true,
        jump_checks: false,
    };
    let solvers = lpmc::smt::cvc5_solvers();
    let deadline = lpmc::Deadline::at(Some(
        std::time::Instant::now() + std::time::Duration::from_secs(60),
    ));
    let check = |name: &str| {
        let text = std::fs::read_to_string(dir.join(name)).expect("reads");
        lpmc::validate_witness(&loaded, &program, &text, &solvers, &deadline, &opts)
            .expect("a valid input")
    };
    let v = check("loops_branch_false_then_target_b.yml");
    assert_eq!(
        v.verdict,
        lpmc::ValidationVerdict::Confirmed,
        "{}",
        v.reason
    );
    let v = check("loops_exit_at_first_test.yml");
    assert_eq!(v.verdict, lpmc::ValidationVerdict::Rejected, "{}", v.reason);
    let bad = check_bad(&loaded, &program, &dir.join("loops_no_such_location.yml"));
    assert!(bad.contains("9:3"), "{bad}");
}

fn check_bad(loaded: &lpmc::Loaded, program: &Path, witness: &Path) -> String {
    let text = std::fs::read_to_string(witness).expect("reads");
    match lpmc::validate_witness(
        loaded,
        program,
        &text,
        &lpmc::smt::cvc5_solvers(),
        &lpmc::Deadline::none(),
        &lpmc::ValidateOptions::default(),
    ) {
        Err(e) => e.to_string(),
        Ok(v) => panic!("accepted as input: {v:?}"),
    }
}
