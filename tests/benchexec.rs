//! The BenchExec tool-info module (`contrib/benchexec/lpmc.py`): BenchExec is installed
//! from PyPI into a virtual environment (made once under the target folder), the module
//! is put among its tool-info modules, and BenchExec's own self-test
//! (`python3 -m benchexec.test_tool_info`) runs it on the lpmc binary, a task definition
//! and two outputs of lpmc (SAFE and UNSAFE). When PyPI cannot be reached, the test
//! prints one line saying so and passes.

mod common;

use common::{lp_dir, venv};
use std::path::Path;
use std::process::Command;

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

#[test]
fn benchexecs_tool_info_self_test_passes_on_the_module() {
    let Some(python) = venv(
        "benchexec-venv",
        "benchexec",
        "benchexec",
        "benchexecs_tool_info_self_test_passes_on_the_module",
    ) else {
        return;
    };
    let tools = run(Command::new(&python).args([
        "-c",
        "import benchexec.tools, os; print(os.path.dirname(benchexec.tools.__file__))",
    ]));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("contrib/benchexec/lpmc.py"),
        Path::new(tools.trim()).join("lpmc.py"),
    )
    .expect("the module is copied among BenchExec's tool-info modules");
    // A task of our own (the shared benchmarks' tasks name property files that are not
    // there), and two outputs of lpmc.
    let dir = std::env::temp_dir().join(format!("lpmc-benchexec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    std::fs::copy(lp_dir().join("fig1.lp"), dir.join("fig1.c")).expect("copies");
    std::fs::copy(
        root.join("contrib/benchexec/unreach-call.prp"),
        dir.join("unreach-call.prp"),
    )
    .expect("copies");
    std::fs::write(
        dir.join("fig1.yml"),
        "format_version: '2.0'\ninput_files: 'fig1.c'\nproperties:\n  - property_file: unreach-call.prp\n    expected_verdict: true\noptions:\n  language: C\n  data_model: LP64\n",
    )
    .expect("writes");
    let lpmc = env!("CARGO_BIN_EXE_lpmc");
    for (name, program) in [
        ("safe", "fig1.lp"),
        ("unsafe", "array_any_index_off_by_one.lp"),
    ] {
        let out = Command::new(lpmc)
            .arg("check")
            .arg(lp_dir().join(program))
            .output()
            .expect("lpmc runs");
        std::fs::write(dir.join(format!("{name}.txt")), out.stdout).expect("writes");
    }
    let bin = Path::new(lpmc).parent().expect("the binary's folder");
    let text = run(Command::new(&python)
        .args(["-m", "benchexec.test_tool_info", "lpmc", "--no-container"])
        .arg("--tool-directory")
        .arg(bin)
        .arg("--task-definition")
        .arg(dir.join("fig1.yml"))
        .arg("--tool-output")
        .arg(dir.join("safe.txt"))
        .arg(dir.join("unsafe.txt")));
    assert!(!text.contains("Traceback"), "{text}");
    assert!(
        text.contains(&format!("Version: “{}”", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
    assert!(
        text.contains("'--timeout'"),
        "the time limit is passed on: {text}"
    );
    assert!(text.contains("'--data-model', 'LP64'"), "{text}");
    assert!(text.contains("“true”"), "SAFE is true: {text}");
    assert!(
        text.contains("“false(unreach-call)”"),
        "UNSAFE is false: {text}"
    );
    // The module passes the task's property file on to lpmc.
    assert!(!text.contains("ignores property file"), "{text}");
    assert!(text.contains("'--property'"), "{text}");

    // A no-overflow task: lpmc is asked for that property, and an overflow it reaches is
    // `false(no-overflow)`.
    std::fs::copy(
        root.join("contrib/benchexec/no-overflow.prp"),
        dir.join("no-overflow.prp"),
    )
    .expect("copies");
    let program = "extern int __VERIFIER_nondet_int(void);\n\
                   int main() { int x = __VERIFIER_nondet_int(); if (x > 0) { x = x + 2147483647; } return 0; }\n";
    std::fs::write(dir.join("ovf.c"), program).expect("writes");
    std::fs::write(
        dir.join("ovf.yml"),
        "format_version: '2.0'\ninput_files: 'ovf.c'\nproperties:\n  - property_file: no-overflow.prp\n    expected_verdict: false\noptions:\n  language: C\n  data_model: ILP32\n",
    )
    .expect("writes");
    let out = Command::new(lpmc)
        .arg("check")
        .arg(dir.join("ovf.yml"))
        .output()
        .expect("lpmc runs");
    assert_eq!(out.status.code(), Some(10), "{out:?}");
    std::fs::write(dir.join("ovf.txt"), out.stdout).expect("writes");
    let text = run(Command::new(&python)
        .args(["-m", "benchexec.test_tool_info", "lpmc", "--no-container"])
        .arg("--tool-directory")
        .arg(bin)
        .arg("--task-definition")
        .arg(dir.join("ovf.yml"))
        .arg("--tool-output")
        .arg(dir.join("ovf.txt")));
    assert!(text.contains("no-overflow.prp"), "{text}");
    assert!(text.contains("“false(no-overflow)”"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
