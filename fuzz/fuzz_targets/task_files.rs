#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| rephyre_fuzz::task_files(data));
