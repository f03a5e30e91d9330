#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| plateau_fuzz::engine_spec(data));
