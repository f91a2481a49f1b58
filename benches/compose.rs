//! States per second of `subst::automata::compose::compose` on a parametric model: a token ring
//! of N processes, N growing until one composition takes about ten seconds.
//!
//! Usage: `cargo bench --bench compose`. `SUBST_BENCH_COMPOSE_SECONDS` changes the ten seconds.
//!
//! Process i holds the token or not and is idle, wanting or critical. It may `request.i` at any
//! time when idle, `enter.i` its critical section only when it wants and holds the token,
//! `exit.i` back to idle, and when idle with the token `pass.i` it to process i+1 (mod N), which
//! takes it on the same event. The reachable product has one holder in one of three modes and
//! every other process idle or wanting: N * 3 * 2^(N-1) states, which the bench checks. Building
//! the processes is not timed; small N run three times and report the best.

use std::time::{Duration, Instant};

use subst::automata::compose::compose;
use subst::automata::dla::{Builder, Dla};

const REPEAT_BUDGET: Duration = Duration::from_secs(1);

fn main() {
    let target = std::env::var("SUBST_BENCH_COMPOSE_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .map_or(Duration::from_secs(10), Duration::from_secs_f64);
    println!("{:>3} {:>12} {:>12} {:>10} {:>14}", "N", "states", "transitions", "seconds", "states/second");
    for n in 2.. {
        let ring: Vec<Dla> = (0..n).map(|i| process(i, n)).collect();
        let parts: Vec<&Dla> = ring.iter().collect();
        let mut times = Vec::new();
        let product = loop {
            let start = Instant::now();
            let product = compose(&parts);
            times.push(start.elapsed());
            if times.len() == 3 || times.iter().sum::<Duration>() >= REPEAT_BUDGET {
                break product;
            }
        };
        let expected = n * 3 * (1usize << (n - 1));
        assert_eq!(product.n_states(), expected, "the token ring of {n} has N * 3 * 2^(N-1) states");
        let seconds = times.iter().min().expect("at least one run").as_secs_f64();
        println!(
            "{n:>3} {:>12} {:>12} {seconds:>10.3} {:>14.0}",
            product.n_states(),
            product.n_transitions(),
            product.n_states() as f64 / seconds
        );
        if times[0] >= target {
            break;
        }
    }
}

/// Process `i` of a ring of `n`; process 0 starts with the token.
fn process(i: usize, n: usize) -> Dla {
    let (request, enter, exit) = (format!("request.{i}"), format!("enter.{i}"), format!("exit.{i}"));
    let (send, receive) = (format!("pass.{i}"), format!("pass.{}", (i + n - 1) % n));
    let mut b = Builder::new();
    let idle = b.add_state(&[], true);
    let want = b.add_state(&[], true);
    let idle_token = b.add_state(&[], true);
    let want_token = b.add_state(&[], true);
    let critical = b.add_state(&[], true);
    b.add_transition(idle, &request, want);
    b.add_transition(idle, &receive, idle_token);
    b.add_transition(want, &receive, want_token);
    b.add_transition(idle_token, &request, want_token);
    b.add_transition(idle_token, &send, idle);
    b.add_transition(want_token, &enter, critical);
    b.add_transition(critical, &exit, idle_token);
    b.set_initial(if i == 0 { idle_token } else { idle });
    b.build()
}
