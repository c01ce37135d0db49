//! Build script: make libcvc5 1.4.0 (with its C API) available and link it.
//!
//! Facts behind this glue are in `../shared/notes/cvc5.md`:
//! - `cvc5-sys` uses its bundled bindings because `.cargo/config.toml` sets `DOCS_RS=1`,
//!   and then emits no link directives, so this script links the library itself;
//! - the library comes from the official PyPI wheel `cvc5==1.4.0` (pinned by sha256),
//!   unpacked into `.deps/cvc5-1.4.0/lib` unless `CVC5_LIB_DIR` points elsewhere;
//! - `CVC5_NO_FETCH=1` forbids the download (then the library must already be there).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const WHEEL: &str = "cvc5-1.4.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl";
const WHEEL_SHA256: &str = "8bde7e7e725a0910510a771d67e34b2a015c477b976f0e24616458e8c935271c";

fn main() {
    println!("cargo:rerun-if-env-changed=CVC5_LIB_DIR");
    println!("cargo:rerun-if-env-changed=CVC5_NO_FETCH");
    println!("cargo:rerun-if-changed=build.rs");

    let manifest =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let lib_dir = match env::var_os("CVC5_LIB_DIR") {
        Some(d) => PathBuf::from(d),
        None => manifest.join(".deps").join("cvc5-1.4.0").join("lib"),
    };
    if !lib_dir.join("libcvc5.so").exists() {
        if env::var_os("CVC5_LIB_DIR").is_some() || env::var_os("CVC5_NO_FETCH").is_some() {
            fail(&format!(
                "libcvc5.so not found in {} and fetching is disabled",
                lib_dir.display()
            ));
        }
        if let Err(e) = fetch(&lib_dir) {
            fail(&e);
        }
    }
    let lib_dir = fs::canonicalize(&lib_dir).unwrap_or(lib_dir);
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rustc-link-lib=dylib=cvc5");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
    println!("cargo:rustc-env=LPMC_CVC5_LIB_DIR={}", lib_dir.display());
}

fn fail(msg: &str) -> ! {
    let bar = "=".repeat(78);
    panic!(
        "\n{bar}\nlpmc needs libcvc5 1.4.0 (with its C API): {msg}\n\n\
         Fix: let the build fetch it (needs python3 with pip and access to PyPI), or unpack\n\
         the wheel {WHEEL}\n\
         (sha256 {WHEEL_SHA256}) yourself and set CVC5_LIB_DIR to the directory holding\n\
         its cvc5.libs/*.so files plus a symlink libcvc5.so -> libcvc5-<hash>.so.1.4.0.\n\
         Only x86_64 Linux is supported by the pinned wheel.\n{bar}\n"
    );
}

/// Download the pinned wheel with pip and unpack its shared libraries into `lib_dir`.
fn fetch(lib_dir: &Path) -> Result<(), String> {
    let target = env::var("TARGET").unwrap_or_default();
    if !target.starts_with("x86_64") || !target.contains("linux") {
        return Err(format!("target {target} is not x86_64 Linux"));
    }
    let parent = lib_dir
        .parent()
        .ok_or_else(|| "bad library directory".to_string())?
        .to_path_buf();
    let deps = parent
        .parent()
        .ok_or_else(|| "bad library directory".to_string())?
        .to_path_buf();
    fs::create_dir_all(&deps).map_err(|e| format!("cannot create {}: {e}", deps.display()))?;
    // A private work directory, renamed into place at the end, so two concurrent builds
    // never see a half-unpacked library.
    let work = deps.join(format!("tmp-{}-{}", std::process::id(), unique()));
    let _ = fs::remove_dir_all(&work);
    fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let req = work.join("requirements.txt");
    fs::write(&req, format!("cvc5==1.4.0 --hash=sha256:{WHEEL_SHA256}\n"))
        .map_err(|e| format!("cannot write {}: {e}", req.display()))?;
    let python = env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let status = Command::new(&python)
        .args([
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--require-hashes",
        ])
        .args([
            "--platform",
            "manylinux2014_x86_64",
            "--python-version",
            "3.11",
        ])
        .args([
            "--implementation",
            "cp",
            "--abi",
            "cp311",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .arg("-r")
        .arg(&req)
        .arg("-d")
        .arg(&work)
        .status()
        .map_err(|e| format!("cannot run `{python} -m pip`: {e}"))?;
    if !status.success() {
        return Err(format!(
            "`{python} -m pip download cvc5==1.4.0` failed ({status})"
        ));
    }
    let wheel = work.join(WHEEL);
    if !wheel.exists() {
        return Err(format!("pip did not produce {}", wheel.display()));
    }
    let unpack = work.join("unpacked");
    let script = "import sys, zipfile\n\
                  z = zipfile.ZipFile(sys.argv[1])\n\
                  names = [n for n in z.namelist() if n.startswith('cvc5.libs/')]\n\
                  [z.extract(n, sys.argv[2]) for n in names]\n";
    let status = Command::new(&python)
        .arg("-c")
        .arg(script)
        .arg(&wheel)
        .arg(&unpack)
        .status()
        .map_err(|e| format!("cannot run {python} to unzip the wheel: {e}"))?;
    if !status.success() {
        return Err("unzipping the cvc5 wheel failed".to_string());
    }
    let libs = unpack.join("cvc5.libs");
    let main_lib = fs::read_dir(&libs)
        .map_err(|e| format!("cannot read {}: {e}", libs.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|n| n.starts_with("libcvc5-") && n.ends_with(".so.1.4.0"))
        .ok_or_else(|| "the wheel holds no libcvc5-*.so.1.4.0".to_string())?;
    std::os::unix::fs::symlink(&main_lib, libs.join("libcvc5.so"))
        .map_err(|e| format!("cannot symlink libcvc5.so: {e}"))?;
    let staged = work.join("cvc5-1.4.0");
    fs::create_dir_all(&staged).map_err(|e| e.to_string())?;
    fs::rename(&libs, staged.join("lib")).map_err(|e| e.to_string())?;
    if !lib_dir.join("libcvc5.so").exists() {
        let _ = fs::remove_dir_all(&parent);
        if let Err(e) = fs::rename(&staged, &parent) {
            // Another build may have won the race; that is fine if it left a library.
            if !lib_dir.join("libcvc5.so").exists() {
                return Err(format!(
                    "cannot move the library into {}: {e}",
                    parent.display()
                ));
            }
        }
    }
    let _ = fs::remove_dir_all(&work);
    Ok(())
}

fn unique() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0)
}
