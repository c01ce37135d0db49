//! The C expressions of witnesses (invariants, assumptions), read into the program's own
//! expressions over its variables in the scope of a procedure: integer literals (with
//! `u`/`l` suffixes), variables, `a[e]`, `+ - * / %` (a product or a quotient needs a
//! constant side), comparisons, `! && ||`, `?:`, parentheses, and casts to signed integer
//! types (read as the identity: invariants are read over mathematical integers).

use crate::cfg::Cfg;
use crate::ids::ProcId;
use crate::sema::{CmpOp, Expr};
use num_bigint::BigInt;

struct P<'a> {
    s: &'a [u8],
    i: usize,
    cfg: &'a Cfg,
    proc: ProcId,
    /// What `\result` reads (a `function_return` waypoint's returned value).
    result: Option<Expr>,
}

type R<T> = Result<T, String>;

/// Read `text` as an expression in the scope of procedure `proc`.
pub(super) fn parse(cfg: &Cfg, proc: ProcId, text: &str) -> R<Expr> {
    parse_with_result(cfg, proc, text, None)
}

/// [`parse`], with `\result` read as `result` (none: `\result` is not in scope).
pub(super) fn parse_with_result(
    cfg: &Cfg,
    proc: ProcId,
    text: &str,
    result: Option<Expr>,
) -> R<Expr> {
    let mut p = P {
        s: text.as_bytes(),
        i: 0,
        cfg,
        proc,
        result,
    };
    let e = p.cond()?;
    p.ws();
    if p.i < p.s.len() {
        return Err(format!("unexpected `{}` in `{text}`", &text[p.i..]));
    }
    Ok(e)
}

fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl P<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, tok: &str) -> bool {
        self.ws();
        if self.s[self.i..].starts_with(tok.as_bytes()) {
            // `<` must not eat the start of `<=`, `&` of `&&`, and so on.
            let next = self.s.get(self.i + tok.len()).copied();
            let glued = matches!(
                (tok, next),
                ("<" | ">" | "=" | "!", Some(b'=')) | ("&", Some(b'&')) | ("|", Some(b'|'))
            );
            if !glued {
                self.i += tok.len();
                return true;
            }
        }
        false
    }

    fn cond(&mut self) -> R<Expr> {
        let c = self.or()?;
        if self.eat("?") {
            let t = self.cond()?;
            if !self.eat(":") {
                return Err("`?` without `:`".into());
            }
            let e = self.cond()?;
            return Ok(Expr::Cond(b(c), b(t), b(e)));
        }
        Ok(c)
    }

    fn or(&mut self) -> R<Expr> {
        let mut e = self.and()?;
        while self.eat("||") {
            e = Expr::Or(b(e), b(self.and()?));
        }
        Ok(e)
    }

    fn and(&mut self) -> R<Expr> {
        let mut e = self.eq()?;
        while self.eat("&&") {
            e = Expr::And(b(e), b(self.eq()?));
        }
        Ok(e)
    }

    fn eq(&mut self) -> R<Expr> {
        let mut e = self.rel()?;
        loop {
            let op = if self.eat("==") {
                CmpOp::Eq
            } else if self.eat("!=") {
                CmpOp::Ne
            } else {
                return Ok(e);
            };
            e = Expr::Cmp(op, b(e), b(self.rel()?));
        }
    }

    fn rel(&mut self) -> R<Expr> {
        let mut e = self.add()?;
        loop {
            let op = if self.eat("<=") {
                CmpOp::Le
            } else if self.eat(">=") {
                CmpOp::Ge
            } else if self.eat("<") {
                CmpOp::Lt
            } else if self.eat(">") {
                CmpOp::Gt
            } else {
                return Ok(e);
            };
            e = Expr::Cmp(op, b(e), b(self.add()?));
        }
    }

    fn add(&mut self) -> R<Expr> {
        let mut e = self.mul()?;
        loop {
            if self.eat("+") {
                e = Expr::Add(b(e), b(self.mul()?));
            } else if self.eat("-") {
                e = Expr::Sub(b(e), b(self.mul()?));
            } else {
                return Ok(e);
            }
        }
    }

    fn mul(&mut self) -> R<Expr> {
        let mut e = self.unary()?;
        loop {
            if self.eat("*") {
                let r = self.unary()?;
                e = match (e, r) {
                    (Expr::Const(c), x) | (x, Expr::Const(c)) => Expr::Scale(c, b(x)),
                    _ => return Err("a product of two variables is not linear".into()),
                };
            } else if self.eat("/") || self.eat("%") {
                let div = self.s[self.i - 1] == b'/';
                match self.unary()? {
                    Expr::Const(c) if c > BigInt::from(0) => {
                        e = if div {
                            Expr::Div(b(e), c)
                        } else {
                            Expr::Mod(b(e), c)
                        };
                    }
                    _ => {
                        return Err("a division by a non-constant or a non-positive constant".into())
                    }
                }
            } else {
                return Ok(e);
            }
        }
    }

    fn unary(&mut self) -> R<Expr> {
        if self.eat("-") {
            return Ok(match self.unary()? {
                Expr::Const(c) => Expr::Const(-c),
                x => Expr::Scale(BigInt::from(-1), b(x)),
            });
        }
        if self.eat("+") {
            return self.unary();
        }
        if self.eat("!") {
            return Ok(Expr::Not(b(self.unary()?)));
        }
        if self.eat("(") {
            let save = self.i;
            if let Some(()) = self.cast() {
                return self.unary();
            }
            self.i = save;
            let e = self.cond()?;
            if !self.eat(")") {
                return Err("a `(` without `)`".into());
            }
            return Ok(e);
        }
        self.primary()
    }

    /// A cast to a signed integer type, up to its `)`.
    fn cast(&mut self) -> Option<()> {
        let mut words = Vec::new();
        loop {
            self.ws();
            let w = self.ident();
            if w.is_empty() {
                break;
            }
            words.push(w);
        }
        let ok = !words.is_empty()
            && words
                .iter()
                .all(|w| matches!(w.as_str(), "int" | "long" | "signed" | "short" | "char"))
            && self.eat(")");
        ok.then_some(())
    }

    fn ident(&mut self) -> String {
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_')
        {
            self.i += 1;
        }
        if start < self.s.len() && self.s[start].is_ascii_digit() {
            self.i = start;
            return String::new();
        }
        String::from_utf8_lossy(&self.s[start..self.i]).to_string()
    }

    fn primary(&mut self) -> R<Expr> {
        self.ws();
        let start = self.i;
        if self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                self.i += 1;
            }
            let digits = String::from_utf8_lossy(&self.s[start..self.i]).to_string();
            while self.i < self.s.len() && matches!(self.s[self.i], b'u' | b'U' | b'l' | b'L') {
                self.i += 1;
            }
            return digits
                .parse::<BigInt>()
                .map(Expr::Const)
                .map_err(|e| e.to_string());
        }
        if self.s[self.i..].starts_with(b"\\result") {
            self.i += "\\result".len();
            return self
                .result
                .clone()
                .ok_or_else(|| "`\\result` outside a function_return waypoint".to_string());
        }
        let name = self.ident();
        if name.is_empty() {
            return Err(format!(
                "an expression expected at `{}`",
                String::from_utf8_lossy(&self.s[self.i..])
            ));
        }
        if self.eat("[") {
            let i = self.cond()?;
            if !self.eat("]") {
                return Err("a `[` without `]`".into());
            }
            let a = self.array(&name)?;
            return Ok(Expr::Read(a, b(i)));
        }
        self.var(&name)
    }

    fn var(&self, name: &str) -> R<Expr> {
        // The procedure's own variables shadow the globals.
        let scope = self.cfg.proc_scope(self.proc);
        scope
            .iter()
            .rev()
            .find(|v| self.cfg.vars[**v].name == name)
            .map(|v| Expr::Var(*v))
            .ok_or_else(|| format!("no variable `{name}` in scope"))
    }

    fn array(&self, name: &str) -> R<crate::ids::ArrayId> {
        let own = &self.cfg.procs[self.proc].arrays;
        own.iter()
            .chain(&self.cfg.global_arrays)
            .find(|a| self.cfg.arrays[**a].name == name)
            .copied()
            .ok_or_else(|| format!("no array `{name}` in scope"))
    }
}
