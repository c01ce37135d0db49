//! The `lpmc` command line.
fn main() {
    println!("lpmc: no commands yet");
}
