//! Random small C programs of the kind users write as verification tasks: inputs drawn by
//! `__VERIFIER_nondet_int()` and bounded at once by an assumption (`if (!(lo <= x && x <=
//! hi)) return 0;`), also inside loops; loops with constant bounds, nested; `%` and `/` by
//! constants; a small global array indexed in bounds; procedures with parameters (some
//! unused), globals they update, calls from several sites, and a bounded recursion; and
//! one or two checks `if (!(c)) { reach_error(); }`.
//!
//! Each program comes with a twin ([`Generated::in_range`]) whose inputs are drawn by a
//! linear congruential generator from one seed, each in its assumed range: a run of the
//! twin with a random seed is a random run of the program that passes every assumption,
//! the oracle for what "most runs reach the error" means.
//!
//! [`bounded_program`] writes programs of the same kind for the bounded model checker,
//! with `if`s and loops nested up to 3 deep, each with its draw sites and a probe (the
//! program with a marker assumption after each draw) that lets a test enumerate its runs.
//!
//! Values stay small (inputs within [-20, 20], loops of at most 8 iterations, small
//! coefficients), so no signed arithmetic overflows.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::fmt::Write as _;

/// A generated program and its in-range twin.
pub struct Generated {
    /// The program.
    pub program: String,
    /// The same program, each input drawn in its assumed range from the seed `__seed`
    /// (the twin's only input).
    pub in_range: String,
}

/// The size of the global array `a`.
const ARRAY: i64 = 4;

struct Gen {
    rng: SmallRng,
    /// Scalars in scope that statements may assign and read.
    vars: Vec<String>,
    /// Loop counters in scope, with their bounds (read only).
    counters: Vec<(String, i64)>,
    /// Procedures callable from the current one: name and arity.
    procs: Vec<(String, usize)>,
    /// Next fresh number for locals and loop counters.
    fresh: usize,
    /// Whether the twin is being written (draws come from the generator).
    twin: bool,
    /// Whether the probe is being written (see [`Bounded::probe`]).
    probe: bool,
    /// How deep `if`s and loops nest (2 for [`c_program`]).
    max_depth: u32,
    /// The variables a draw may assign, when not any variable in scope: the locals of
    /// the procedure being written, for [`bounded_program`].
    draw_targets: Vec<String>,
    /// The input draws so far, with their ranges, in the order of the text.
    sites: Vec<DrawSite>,
    /// Whether a procedure other than `main` is being written.
    in_proc: bool,
    /// Whether every local is declared with an initial value (the interpreter asks its
    /// oracle for the value of an uninitialised one, even if it is assigned before read).
    init_locals: bool,
    /// Whether a draw in a procedure other than `main` assigns one of its locals only
    /// (see [`bounded_program`]).
    local_draws: bool,
    /// The recursive procedure, if any: its name.
    rec: Option<String>,
}

impl Gen {
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.rng.gen_range(0..xs.len())]
    }

    fn var(&mut self) -> String {
        let vs = self.vars.clone();
        self.pick(&vs).clone()
    }

    /// The variable a draw assigns.
    fn draw_target(&mut self) -> String {
        if self.draw_targets.is_empty() {
            self.var()
        } else {
            let ts = self.draw_targets.clone();
            self.pick(&ts).clone()
        }
    }

    /// A readable atom: a variable, a loop counter, a constant.
    fn atom(&mut self) -> String {
        match self.rng.gen_range(0..10) {
            0..=5 => self.var(),
            6..=7 if !self.counters.is_empty() => {
                let cs = self.counters.clone();
                self.pick(&cs).0.clone()
            }
            _ => self.rng.gen_range(-5..=9).to_string(),
        }
    }

    /// A small linear expression, or one with `%`/`/` by a constant, or an array read.
    fn expr(&mut self) -> String {
        match self.rng.gen_range(0..12) {
            0..=3 => self.atom(),
            4..=5 => format!("{} + {}", self.atom(), self.atom()),
            6 => format!("{} - {}", self.atom(), self.atom()),
            7 => format!("{} * {}", self.rng.gen_range(2..=3), self.atom()),
            8 => format!("{} % {}", self.atom(), self.rng.gen_range(2..=5)),
            9 => format!("{} / {}", self.atom(), self.rng.gen_range(2..=4)),
            10 => format!("a[{}]", self.index()),
            _ => format!("{} + {}", self.atom(), self.rng.gen_range(1..=3)),
        }
    }

    /// An index of `a` that is in bounds: a constant, or a loop counter whose bound is
    /// at most the size.
    fn index(&mut self) -> String {
        let ok: Vec<String> = self
            .counters
            .iter()
            .filter(|(_, b)| *b <= ARRAY)
            .map(|(c, _)| c.clone())
            .collect();
        if !ok.is_empty() && self.rng.gen_bool(0.5) {
            self.pick(&ok).clone()
        } else {
            self.rng.gen_range(0..ARRAY).to_string()
        }
    }

    fn cond(&mut self) -> String {
        let op = *self.pick(&["<", "<=", "==", "!=", ">", ">="]);
        let l = self.atom();
        let r = if self.rng.gen_bool(0.5) {
            self.rng.gen_range(-10..=20).to_string()
        } else {
            self.atom()
        };
        format!("{l} {op} {r}")
    }

    /// `x = nondet(); if (!(lo <= x && x <= hi)) return R;` (the twin draws in range).
    fn draw(&mut self, target: &str, ret: &str, out: &mut String, ind: &str) {
        let lo = self.rng.gen_range(-20..=10);
        let hi = lo + self.rng.gen_range(0..=10);
        self.sites.push(DrawSite {
            lo,
            hi,
            in_proc: self.in_proc,
            probe_line: 0,
        });
        if self.twin {
            let w = hi - lo + 1;
            let _ = writeln!(out, "{ind}{target} = {lo} + __next() % {w};");
        } else {
            let _ = writeln!(out, "{ind}{target} = __VERIFIER_nondet_int();");
        }
        if self.probe {
            let _ = writeln!(out, "{ind}__VERIFIER_assume({target} != {PROBE});");
        }
        let _ = writeln!(
            out,
            "{ind}if (!({lo} <= {target} && {target} <= {hi})) return{ret};"
        );
    }

    fn call(&mut self) -> Option<String> {
        if self.procs.is_empty() {
            return None;
        }
        let ps = self.procs.clone();
        let (name, arity) = self.pick(&ps).clone();
        let args: Vec<String> = if Some(&name) == self.rec.as_ref() {
            vec![self.rng.gen_range(0..=4).to_string()]
        } else {
            (0..arity).map(|_| self.atom()).collect()
        };
        Some(format!("{name}({})", args.join(", ")))
    }

    fn stmts_in(
        &mut self,
        n: std::ops::RangeInclusive<usize>,
        depth: u32,
        ret: &str,
        out: &mut String,
        ind: &str,
    ) {
        let n = self.rng.gen_range(n);
        self.stmts(n, depth, ret, out, ind);
    }

    fn stmts(&mut self, n: usize, depth: u32, ret: &str, out: &mut String, ind: &str) {
        for _ in 0..n {
            self.stmt(depth, ret, out, ind);
        }
    }

    fn stmt(&mut self, depth: u32, ret: &str, out: &mut String, ind: &str) {
        let inner = format!("{ind}  ");
        match self.rng.gen_range(0..14) {
            0..=3 => {
                let v = self.var();
                let e = self.expr();
                let _ = writeln!(out, "{ind}{v} = {e};");
            }
            4 => {
                let v = self.var();
                let op = *self.pick(&["+=", "-="]);
                let c = self.rng.gen_range(1..=3);
                let _ = writeln!(out, "{ind}{v} {op} {c};");
            }
            5 => {
                let i = self.index();
                let e = self.expr();
                let _ = writeln!(out, "{ind}a[{i}] = {e};");
            }
            6..=7 if depth < self.max_depth => {
                let c = self.cond();
                let _ = writeln!(out, "{ind}if ({c}) {{");
                self.stmts_in(1..=2, depth + 1, ret, out, &inner);
                if self.rng.gen_bool(0.5) {
                    let _ = writeln!(out, "{ind}}} else {{");
                    self.stmts(1, depth + 1, ret, out, &inner);
                }
                let _ = writeln!(out, "{ind}}}");
            }
            8..=9 if depth < self.max_depth => {
                self.fresh += 1;
                let i = format!("i{}", self.fresh);
                let b = self.rng.gen_range(1..=8);
                let _ = writeln!(out, "{ind}for ({i} = 0; {i} < {b}; {i}++) {{");
                self.counters.push((i.clone(), b));
                self.stmts_in(1..=3, depth + 1, ret, out, &inner);
                self.counters.pop();
                let _ = writeln!(out, "{ind}}}");
            }
            10 if depth < self.max_depth => {
                // An input drawn in a loop, bounded by its assumption.
                self.fresh += 1;
                let i = format!("i{}", self.fresh);
                let b = self.rng.gen_range(1..=6);
                let v = self.draw_target();
                let _ = writeln!(out, "{ind}for ({i} = 0; {i} < {b}; {i}++) {{");
                self.counters.push((i.clone(), b));
                self.draw(&v, ret, out, &inner);
                self.stmts(1, depth + 1, ret, out, &inner);
                self.counters.pop();
                let _ = writeln!(out, "{ind}}}");
            }
            11..=12 => {
                if let Some(c) = self.call() {
                    if self.rng.gen_bool(0.6) {
                        let v = self.var();
                        let _ = writeln!(out, "{ind}{v} = {c};");
                    } else {
                        let _ = writeln!(out, "{ind}{c};");
                    }
                } else {
                    let v = self.var();
                    let _ = writeln!(out, "{ind}{v} = {v} + 1;");
                }
            }
            _ => {
                let v = self.draw_target();
                self.draw(&v, ret, out, ind);
            }
        }
    }

    /// Declares the loop counters `i1..iN` a body of `out` uses (counters are numbered
    /// from `first`).
    fn counters_decl(&self, first: usize) -> String {
        if self.fresh < first {
            return String::new();
        }
        let names: Vec<String> = (first..=self.fresh)
            .map(|k| self.decl(&format!("i{k}")))
            .collect();
        format!("  int {};\n", names.join(", "))
    }

    /// A local's declarator: `x`, or `x = 0` when locals are declared initialised.
    fn decl(&self, name: &str) -> String {
        if self.init_locals {
            format!("{name} = 0")
        } else {
            name.to_string()
        }
    }

    fn program(&mut self) -> String {
        let mut out = String::new();
        out.push_str("extern int __VERIFIER_nondet_int(void);\n");
        if self.probe {
            out.push_str("extern void __VERIFIER_assume(int);\n");
        }
        out.push_str("void reach_error(void) {}\n");
        if self.twin {
            out.push_str(
                "int __seed;\n\
                 int __next(void) {\n\
                 \x20 __seed = (__seed * 75 + 74) % 65537;\n\
                 \x20 return __seed;\n\
                 }\n",
            );
        }
        let globals = ["g0", "g1"];
        let _ = writeln!(out, "int g0, g1;\nint a[{ARRAY}];");
        // A bounded recursion, sometimes.
        if self.rng.gen_bool(0.3) {
            let c = self.rng.gen_range(0..=3);
            let k = self.rng.gen_range(1..=3);
            let g = *self.pick(&globals);
            let _ = writeln!(
                out,
                "int r0(int n) {{\n  if (n <= 0) return {c};\n  {g} = {g} + 1;\n  return r0(n - 1) + {k};\n}}"
            );
            self.rec = Some("r0".into());
            self.procs.push(("r0".into(), 1));
        }
        // One or two procedures with loops, parameters (some unused) and globals.
        for p in 0..self.rng.gen_range(1..=2) {
            let arity = self.rng.gen_range(0..=3);
            let params: Vec<String> = (0..arity).map(|k| format!("p{k}")).collect();
            let decl: Vec<String> = params.iter().map(|p| format!("int {p}")).collect();
            let name = format!("f{p}");
            self.vars = params.clone();
            self.vars.extend(globals.iter().map(|g| g.to_string()));
            self.vars.push("l0".into());
            if self.local_draws {
                self.draw_targets = params.clone();
                self.draw_targets.push("l0".into());
            }
            self.in_proc = true;
            let first = self.fresh + 1;
            let mut body = String::new();
            self.stmts_in(1..=4, 0, " 0", &mut body, "  ");
            self.in_proc = false;
            self.draw_targets.clear();
            let ret = self.expr();
            let _ = write!(
                out,
                "int {name}({}) {{\n  int l0 = 0;\n{}{body}  return {ret};\n}}\n",
                if decl.is_empty() {
                    "void".to_string()
                } else {
                    decl.join(", ")
                },
                self.counters_decl(first)
            );
            self.procs.push((name, arity));
        }
        // main: inputs first, then statements and checks.
        self.vars = vec!["x0".into(), "x1".into(), "y0".into()];
        self.vars.extend(globals.iter().map(|g| g.to_string()));
        let first = self.fresh + 1;
        let mut body = String::new();
        self.draw("x0", " 0", &mut body, "  ");
        self.draw("x1", " 0", &mut body, "  ");
        body.push_str("  y0 = 0;\n");
        self.stmts_in(2..=6, 0, " 0", &mut body, "  ");
        for _ in 0..self.rng.gen_range(1..=2) {
            let c = self.check();
            let _ = writeln!(body, "  if (!({c})) {{ reach_error(); }}");
            self.stmts_in(0..=2, 0, " 0", &mut body, "  ");
        }
        let locals: Vec<String> = ["x0", "x1", "y0"].iter().map(|v| self.decl(v)).collect();
        let _ = writeln!(out, "int main(void) {{\n  int {};", locals.join(", "));
        out.push_str(&self.counters_decl(first));
        if self.twin {
            out.push_str(
                "  __seed = __VERIFIER_nondet_int();\n  if (!(0 <= __seed && __seed < 65537)) return 0;\n",
            );
        }
        out.push_str(&body);
        out.push_str("  return 0;\n}\n");
        out
    }

    /// A check: a comparison, or a congruence that holds by construction sometimes.
    fn check(&mut self) -> String {
        match self.rng.gen_range(0..4) {
            0 => {
                let v = self.var();
                let m = self.rng.gen_range(2..=4);
                format!("({v} - {m} * x0) % {m} == 0")
            }
            1 => {
                let v = self.var();
                let lo = self.rng.gen_range(-200..=0);
                let hi = self.rng.gen_range(0..=200);
                format!("{lo} <= {v} && {v} <= {hi}")
            }
            _ => self.cond(),
        }
    }
}

/// How a program is generated, and which text of it is written.
#[derive(Clone, Copy)]
struct Shape {
    twin: bool,
    probe: bool,
    max_depth: u32,
    /// [`bounded_program`]'s draws in procedures and initialised locals.
    bounded: bool,
}

/// The text of `seed`'s program in `shape`, and its draw sites.
fn generate(seed: u64, shape: Shape) -> (String, Vec<DrawSite>) {
    let mut g = Gen {
        rng: SmallRng::seed_from_u64(seed),
        vars: Vec::new(),
        counters: Vec::new(),
        procs: Vec::new(),
        fresh: 0,
        twin: shape.twin,
        probe: shape.probe,
        max_depth: shape.max_depth,
        draw_targets: Vec::new(),
        sites: Vec::new(),
        in_proc: false,
        init_locals: shape.bounded || shape.twin,
        local_draws: shape.bounded,
        rec: None,
    };
    let text = g.program();
    (text, g.sites)
}

/// The program of `seed`, and its in-range twin (the same random choices).
pub fn c_program(seed: u64) -> Generated {
    let make = |twin: bool| {
        let shape = Shape {
            twin,
            probe: false,
            max_depth: 2,
            bounded: false,
        };
        generate(seed, shape).0
    };
    Generated {
        program: make(false),
        in_range: make(true),
    }
}

/// The value a probe run gives a draw to learn which site draws (see [`Bounded::probe`]):
/// outside every assumed range.
pub const PROBE: i64 = 1_000_000;

/// A draw site: `x = __VERIFIER_nondet_int(); if (!(lo <= x && x <= hi)) return ...;`.
#[derive(Clone, Debug)]
pub struct DrawSite {
    /// The assumed range.
    pub lo: i64,
    /// The assumed range.
    pub hi: i64,
    /// Whether the site is in a procedure other than `main` (where a value out of range
    /// returns from the procedure, and the run goes on).
    pub in_proc: bool,
    /// The line of the site's `__VERIFIER_assume(x != PROBE)` in [`Bounded::probe`].
    pub probe_line: u32,
}

impl DrawSite {
    /// The values of a draw here that lead to different runs: its range, and in a
    /// procedure one value below it (in [`bounded_program`]'s programs the draw assigns a
    /// local there, which the failed assumption's `return` discards: every value out of
    /// range leads to the same run). In `main`, a value out of range ends the run.
    pub fn values(&self) -> std::ops::RangeInclusive<i64> {
        if self.in_proc {
            self.lo - 1..=self.hi
        } else {
            self.lo..=self.hi
        }
    }
}

/// A program of [`bounded_program`], its twin, and its probe.
pub struct Bounded {
    /// The program.
    pub program: String,
    /// Its in-range twin (as [`Generated::in_range`]).
    pub in_range: String,
    /// The program with `__VERIFIER_assume(x != PROBE);` after each draw: the same runs
    /// for the values the program's assumptions allow, and a run whose draw is given
    /// [`PROBE`] stops there, blocked at the line of that site ([`DrawSite::probe_line`]).
    /// A run of the probe with a list of values followed by [`PROBE`] tells whether the
    /// run needs another value than those listed, and at which site.
    pub probe: String,
    /// The draw sites, in the order of the text.
    pub sites: Vec<DrawSite>,
}

impl Bounded {
    /// The draw site whose assumption of the probe is at `line`.
    pub fn site_at(&self, line: u32) -> Option<&DrawSite> {
        self.sites.iter().find(|s| s.probe_line == line)
    }
}

/// A program like [`c_program`]'s, for the bounded model checker: `if`s and loops nest
/// up to 3 deep (loops of at most 8 iterations, so a fixed unwinding of 8 covers every
/// run), and a draw in a procedure other than `main` assigns one of its locals, so that
/// the values its assumption refuses all lead to one run (see [`DrawSite::values`]).
/// Locals are declared initialised, so that every value the interpreter asks for is a
/// draw's.
pub fn bounded_program(seed: u64) -> Bounded {
    let shape = |twin: bool, probe: bool| Shape {
        twin,
        probe,
        max_depth: 3,
        bounded: true,
    };
    let (program, sites) = generate(seed, shape(false, false));
    let (in_range, _) = generate(seed, shape(true, false));
    let (probe, mut probe_sites) = generate(seed, shape(false, true));
    let lines: Vec<u32> = probe
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("__VERIFIER_assume(") && !l.starts_with("extern"))
        .map(|(i, _)| i as u32 + 1)
        .collect();
    assert!(
        lines.len() == sites.len() && probe_sites.len() == sites.len(),
        "seed {seed}: one assumption of the probe per draw site"
    );
    for (site, line) in probe_sites.iter_mut().zip(lines) {
        site.probe_line = line;
    }
    Bounded {
        program,
        in_range,
        probe,
        sites: probe_sites,
    }
}
