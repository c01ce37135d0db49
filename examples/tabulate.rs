//! Tabulate P̂0 of each program given on the command line and print whether the error
//! node is reachable in the abstraction, with the engine's statistics.
use lpmc::abstraction::{abstract_program, Precision};
use lpmc::domain::{DlcDomain, RelDomain};
use lpmc::engine::{tabulate, Budget};

fn main() {
    for path in std::env::args().skip(1) {
        let l = match lpmc::frontend::load_path(std::path::Path::new(&path)) {
            Ok(l) => l,
            Err(e) => {
                eprint!("{}", e.render(false));
                continue;
            }
        };
        let p0 = abstract_program(&l.cfg, &Precision::empty());
        let mut dom = DlcDomain::new(lpmc::smt::cvc5_solvers(), lpmc::limits::Deadline::none());
        let t = tabulate(
            &p0,
            &mut dom,
            Budget::default().with_timeout(std::time::Duration::from_secs(10)),
        );
        println!(
            "{path}: {:?} steps={} facts={} time={:?} {:?}",
            t.stop,
            t.stats.steps,
            t.stats.facts,
            t.stats.time,
            dom.stats()
        );
        if std::env::var_os("LPMC_TRACE").is_some() {
            if let lpmc::engine::StopReason::ErrorReached(id) = t.stop {
                let mut cur = Some(id);
                while let Some(c) = cur {
                    let r = t.fact(c);
                    println!(
                        "  n{} {}  ::  {}",
                        r.node.0,
                        lpmc::cfg::node_label(&p0, &p0.nodes[r.node].kind),
                        r.fact
                    );
                    cur = match r.origin {
                        lpmc::engine::Origin::Step { pred } => Some(pred),
                        lpmc::engine::Origin::CallEntry { caller } => Some(caller),
                        lpmc::engine::Origin::Return { call, .. } => Some(call),
                        lpmc::engine::Origin::Init => None,
                    };
                }
            }
        }
    }
}
