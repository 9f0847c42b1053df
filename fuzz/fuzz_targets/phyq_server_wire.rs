#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| rephyre_fuzz::phyq_server_wire(data));
