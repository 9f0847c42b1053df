fn main() {
    println!("rephyre: under construction");
}
