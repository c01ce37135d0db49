//! SV-COMP task definitions (format 2.0, `TASK.yml`): the input file, the properties with
//! their expected verdicts, and the options (`language`, `data_model`).
//!
//! ```yaml
//! format_version: '2.0'
//! input_files: 'nested6.i'
//! properties:
//!   - property_file: ../properties/unreach-call.prp
//!     expected_verdict: true
//! options:
//!   language: C
//!   data_model: ILP32
//! ```
//!
//! lpmc checks `unreach-call`, `no-overflow` and `valid-memsafety` (for programs whose
//! memory is arrays); see [`super::property`].

use super::property::Property;
use crate::sema::DataModel;
use std::path::{Path, PathBuf};
use yaml_rust2::{Yaml, YamlLoader};

/// One property of a task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskProperty {
    /// The property file as written, e.g. `../properties/unreach-call.prp`.
    pub file: String,
    /// The expected verdict: `true` (the property holds: SAFE), `false` (UNSAFE), or
    /// none given.
    pub expected_verdict: Option<bool>,
}

impl TaskProperty {
    /// The property its file names.
    pub fn property(&self) -> Property {
        let stem = Path::new(&self.file)
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        Property::from_name(stem)
    }

    /// Whether this is the `unreach-call` property.
    pub fn is_unreach_call(&self) -> bool {
        Path::new(&self.file)
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n == "unreach-call.prp")
    }
}

/// An SV-COMP task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The task file.
    pub path: PathBuf,
    /// The program, relative to the task file's folder. When the named file is missing
    /// but the same name with the other extension (`.c` for `.i` and back) exists, that
    /// one.
    pub input: PathBuf,
    /// The properties, in order.
    pub properties: Vec<TaskProperty>,
    /// `options: language`, if given.
    pub language: Option<String>,
    /// `options: data_model` (ILP32 when not given).
    pub data_model: DataModel,
}

/// Why a task file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    /// The file cannot be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The task file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not YAML, or not a task definition.
    #[error("{path}: {message}")]
    Format {
        /// The task file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// The task does not ask for `unreach-call`, the only property lpmc checks.
    #[error(
        "{path}: lpmc checks only the unreach-call property, and this task does not list it \
         (it lists: {listed})"
    )]
    NoUnreachCall {
        /// The task file.
        path: String,
        /// The properties it lists.
        listed: String,
    },
}

/// Whether a path names a task file (`.yml` or `.yaml`).
pub fn is_task_file(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yml" | "yaml")
    )
}

impl Task {
    /// Read and parse a task file.
    pub fn read(path: &Path) -> Result<Task, TaskError> {
        let text = std::fs::read_to_string(path).map_err(|source| TaskError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Task::parse(path, &text)
    }

    /// Parse the text of the task file at `path` (the input file is looked up beside it).
    pub fn parse(path: &Path, text: &str) -> Result<Task, TaskError> {
        let bad = |message: String| TaskError::Format {
            path: path.display().to_string(),
            message,
        };
        let docs =
            YamlLoader::load_from_str(text).map_err(|e| bad(format!("not valid YAML: {e}")))?;
        let doc = docs
            .first()
            .filter(|d| d.as_hash().is_some())
            .ok_or_else(|| bad("not a task definition (expected a YAML mapping)".into()))?;
        let input = match &doc["input_files"] {
            Yaml::String(s) => s.clone(),
            Yaml::Array(a) => match a.as_slice() {
                [Yaml::String(s)] => s.clone(),
                [] => return Err(bad("`input_files` is empty".into())),
                [_] => return Err(bad("`input_files` must name a file".into())),
                _ => {
                    return Err(bad(format!(
                        "`input_files` lists {} files; lpmc reads one program",
                        a.len()
                    )))
                }
            },
            Yaml::BadValue => return Err(bad("no `input_files`".into())),
            _ => return Err(bad("`input_files` must be a file name or a list".into())),
        };
        let mut properties = Vec::new();
        if let Some(ps) = doc["properties"].as_vec() {
            for p in ps {
                let file = p["property_file"]
                    .as_str()
                    .ok_or_else(|| bad("a property without `property_file`".into()))?;
                let expected_verdict = match &p["expected_verdict"] {
                    Yaml::Boolean(b) => Some(*b),
                    Yaml::BadValue | Yaml::Null => None,
                    Yaml::String(s) if s == "true" || s == "false" => Some(s == "true"),
                    _ => return Err(bad("`expected_verdict` must be true or false".into())),
                };
                properties.push(TaskProperty {
                    file: file.to_string(),
                    expected_verdict,
                });
            }
        }
        let options = &doc["options"];
        let language = options["language"].as_str().map(str::to_string);
        let data_model = match options["data_model"].as_str() {
            None => DataModel::default(),
            Some(s) => DataModel::parse(s)
                .ok_or_else(|| bad(format!("unknown data_model `{s}` (ILP32 or LP64)")))?,
        };
        let dir = path.parent().unwrap_or(Path::new(""));
        let named = dir.join(&input);
        let input = if named.is_file() {
            named
        } else {
            let other = match named.extension().and_then(|e| e.to_str()) {
                Some("i") => Some(named.with_extension("c")),
                Some("c") => Some(named.with_extension("i")),
                _ => None,
            };
            match other.filter(|o| o.is_file()) {
                Some(o) => o,
                None => {
                    return Err(bad(format!(
                        "the input file {} does not exist",
                        named.display()
                    )))
                }
            }
        };
        Ok(Task {
            path: path.to_path_buf(),
            input,
            properties,
            language,
            data_model,
        })
    }

    /// The `unreach-call` property, or the error saying the task does not have it.
    pub fn unreach_call(&self) -> Result<&TaskProperty, TaskError> {
        self.properties
            .iter()
            .find(|p| p.is_unreach_call())
            .ok_or_else(|| TaskError::NoUnreachCall {
                path: self.path.display().to_string(),
                listed: if self.properties.is_empty() {
                    "nothing".to_string()
                } else {
                    self.properties
                        .iter()
                        .map(|p| p.file.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            })
    }

    /// The expected verdict of `unreach-call`: `Some(true)` for SAFE.
    pub fn expected_safe(&self) -> Option<bool> {
        self.unreach_call().ok()?.expected_verdict
    }

    /// The property a check of the task decides when none is asked for: `unreach-call`
    /// if the task lists it, else the first property it lists (`None`: it lists none).
    pub fn default_property(&self) -> Option<Property> {
        match self.unreach_call() {
            Ok(_) => Some(Property::UnreachCall),
            Err(_) => self.properties.first().map(TaskProperty::property),
        }
    }

    /// The expected verdict of property `p`, if the task lists it with one: `Some(true)`
    /// for SAFE.
    pub fn expected_safe_of(&self, p: &Property) -> Option<bool> {
        self.properties
            .iter()
            .find(|t| t.property() == *p)?
            .expected_verdict
    }
}

/// The expected verdict (`Some(true)` = SAFE) of a program or task: a task file's
/// `unreach-call` verdict; for a program, a `// expect: safe|unsafe` header among its
/// first lines, else the verdict of the task file beside it with the same stem.
pub fn expected_safe_for(path: &Path) -> Option<bool> {
    if is_task_file(path) {
        return Task::read(path).ok()?.expected_safe();
    }
    let text = std::fs::read_to_string(path).unwrap_or_default();
    for l in text.lines().take(5) {
        if let Some(v) = l.trim().strip_prefix("// expect:") {
            return match v.trim().to_ascii_lowercase().as_str() {
                "safe" => Some(true),
                "unsafe" => Some(false),
                _ => None,
            };
        }
    }
    let task = Task::read(&path.with_extension("yml")).ok()?;
    task.expected_safe()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_task_and_falls_back_to_the_other_extension() {
        let dir = std::env::temp_dir().join(format!("lpmc-task-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("t.c"), "int main() { return 0; }\n").expect("write");
        let yml = "format_version: '2.0'\ninput_files: 't.i'\nproperties:\n  \
                   - property_file: ../properties/termination.prp\n    expected_verdict: true\n  \
                   - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n\
                   options:\n  language: C\n  data_model: LP64\n";
        let t = Task::parse(&dir.join("t.yml"), yml).expect("a task");
        assert_eq!(t.input, dir.join("t.c"));
        assert_eq!(t.data_model, DataModel::Lp64);
        assert_eq!(t.language.as_deref(), Some("C"));
        assert_eq!(t.expected_safe(), Some(false));
        let list = "input_files: ['t.c']\nproperties:\n  - property_file: a/no-overflow.prp\n";
        let t = Task::parse(&dir.join("u.yml"), list).expect("a task");
        assert!(matches!(
            t.unreach_call(),
            Err(TaskError::NoUnreachCall { .. })
        ));
        assert_eq!(t.data_model, DataModel::Ilp32);
        assert_eq!(t.default_property(), Some(Property::NoOverflow));
        assert_eq!(t.expected_safe_of(&Property::NoOverflow), None);
        let missing = Task::parse(&dir.join("v.yml"), "input_files: 'none.i'\n");
        assert!(matches!(missing, Err(TaskError::Format { .. })));
        let bad = Task::parse(&dir.join("w.yml"), "input_files: [\n");
        assert!(matches!(bad, Err(TaskError::Format { .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
