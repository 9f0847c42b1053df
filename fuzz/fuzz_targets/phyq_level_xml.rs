#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| rephyre_fuzz::phyq_level_xml(data));
