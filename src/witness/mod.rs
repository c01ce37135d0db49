//! SV-COMP verification witnesses, format 2.0 (YAML): a list of entries, each with an
//! `entry_type`, its `metadata` (format version, UUID, creation time, producer, task:
//! input files with their SHA-256, specification, data model, language) and its
//! `content`.
//! - UNSAFE: a `violation_sequence`: segments of waypoints that follow the replayed run:
//!   a `function_return` for each nondeterministic value (`\result == 7`, where it is
//!   drawn), an `assumption` for each uninitialised variable's value (before the
//!   statement that reads it) and each array cell's initial value (after the
//!   declaration), `function_enter`/`function_return` around the calls of recursive
//!   procedures, and the `target` at the error location. An input C has no name for (an
//!   array read out of bounds under EUREKA's rule) is left to the validator's search.
//! - SAFE: an `invariant_set` with a `loop_invariant` at every loop head: a C expression
//!   over the program's own variables. Format 2.0 has C expressions only, no
//!   quantifiers: of a ∀-invariant over an array the witness keeps what holds of the
//!   scalars and of the constant cells (`--json` carries the ∀-part).
//!
//! Locations are line and column (1-based) in the user's file, before preprocessing.
//! [`validate`](validate::validate) checks a witness of a program: a violation witness as a
//! monitor on the program (segments of `follow` and `avoid` waypoints, the target) and a
//! search for a run it lets through, a correctness witness by the certificate check of
//! its invariants.

mod cexpr;
mod load;
mod monitor;
mod segments;
mod validate;
mod write;

pub use validate::{validate, InvalidWitness, ValidateOptions, Validation, ValidationVerdict};
pub use write::{correctness_witness, violation_witness};

use crate::frontend::Loaded;
use sha2::{Digest, Sha256};
use std::path::Path;
use yaml_rust2::yaml::Hash;
use yaml_rust2::{Yaml, YamlEmitter};

/// The specification of the unreach-call property (a witness names the property the
/// program was checked for: [`crate::frontend::Property::specification`]).
pub const SPECIFICATION: &str = "G ! call(reach_error())";

/// The task a witness is about: the program file as the verifier was given it.
#[derive(Clone, Debug)]
pub struct WitnessTask<'a> {
    /// The program (`.c`, `.i` or `.lp`) as given on the command line.
    pub input: &'a Path,
}

fn s(x: &str) -> Yaml {
    Yaml::String(x.to_string())
}

fn map(entries: Vec<(&str, Yaml)>) -> Yaml {
    let mut h = Hash::new();
    for (k, v) in entries {
        h.insert(s(k), v);
    }
    Yaml::Hash(h)
}

/// The hex SHA-256 of a file's bytes.
fn sha256(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The current time in ISO 8601 (UTC, seconds).
fn now_iso8601() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The `metadata` of an entry.
fn metadata(loaded: &Loaded, task: &WitnessTask) -> Result<Yaml, String> {
    let name = task.input.to_string_lossy().to_string();
    let mut hashes = Hash::new();
    hashes.insert(s(&name), s(&sha256(task.input)?));
    Ok(map(vec![
        ("format_version", s("2.0")),
        ("uuid", s(&uuid::Uuid::new_v4().to_string())),
        ("creation_time", s(&now_iso8601())),
        (
            "producer",
            map(vec![
                ("name", s("lpmc")),
                ("version", s(env!("CARGO_PKG_VERSION"))),
            ]),
        ),
        (
            "task",
            map(vec![
                ("input_files", Yaml::Array(vec![s(&name)])),
                ("input_file_hashes", Yaml::Hash(hashes)),
                (
                    "specification",
                    s(&loaded.semantics.property.specification()),
                ),
                ("data_model", s(loaded.semantics.data_model.as_str())),
                ("language", s("C")),
            ]),
        ),
    ]))
}

/// A location: file, line, column, function.
fn location(task: &WitnessTask, line: u32, col: u32, function: &str) -> Yaml {
    map(vec![
        ("file_name", s(&task.input.to_string_lossy())),
        ("line", Yaml::Integer(i64::from(line.max(1)))),
        ("column", Yaml::Integer(i64::from(col.max(1)))),
        ("function", s(function)),
    ])
}

/// The YAML text of one entry without its `content`, which the caller appends as the
/// entry's last key (`  content:` and its items, indented under the entry).
fn document_head(entry_type: &str, meta: Yaml) -> Result<String, String> {
    emit(vec![("entry_type", s(entry_type)), ("metadata", meta)])
}

/// A witness file: the YAML text of one entry.
fn document(entry_type: &str, meta: Yaml, content: Vec<Yaml>) -> Result<String, String> {
    emit(vec![
        ("entry_type", s(entry_type)),
        ("metadata", meta),
        ("content", Yaml::Array(content)),
    ])
}

/// The YAML text of a witness of one entry with these keys.
fn emit(entry: Vec<(&str, Yaml)>) -> Result<String, String> {
    let doc = Yaml::Array(vec![map(entry)]);
    let mut out = String::new();
    YamlEmitter::new(&mut out)
        .dump(&doc)
        .map_err(|e| format!("cannot write the witness: {e:?}"))?;
    out.push('\n');
    Ok(out)
}

/// A YAML document as JSON (for schema checks): strings, integers, lists, maps.
pub fn yaml_to_json(y: &Yaml) -> serde_json::Value {
    use serde_json::Value;
    match y {
        Yaml::Real(r) => r
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(a) => Value::Array(a.iter().map(yaml_to_json).collect()),
        Yaml::Hash(h) => Value::Object(
            h.iter()
                .map(|(k, v)| {
                    let key = match k {
                        Yaml::String(s) => s.clone(),
                        Yaml::Integer(i) => i.to_string(),
                        other => format!("{other:?}"),
                    };
                    (key, yaml_to_json(v))
                })
                .collect(),
        ),
        _ => Value::Null,
    }
}

/// A witness file's text as JSON (the first YAML document), for schema checks.
pub fn witness_json(text: &str) -> Result<serde_json::Value, String> {
    let docs = yaml_rust2::YamlLoader::load_from_str(text).map_err(|e| e.to_string())?;
    docs.first()
        .map(yaml_to_json)
        .ok_or_else(|| "an empty YAML file".to_string())
}
