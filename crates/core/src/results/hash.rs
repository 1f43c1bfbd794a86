//! The hashers result comparison and Python's equality share: FxHash for hash maps whose keys
//! are compared on a hit, and 128-bit fingerprints for rows that are not compared again.

use std::hash::Hasher;

/// FxHash (rustc's): fast, for hash maps whose keys are compared on a hit.
#[derive(Default)]
pub(crate) struct Fx(u64);

impl Hasher for Fx {
    /// The multiply mixes each input bit only into the bits above it, so without a final mix
    /// the bits a hash table indexes and tags by repeat across similar short texts (a column of
    /// `name-1`, `name-2`, ... sorted three times slower).
    fn finish(&self) -> u64 {
        avalanche(self.0)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// A 128-bit fingerprint from two independent 64-bit hash streams over the same input. Rows
/// with equal fingerprints are taken as equal without comparing them again: a false match needs
/// both streams to collide at once (odds of about 2^-128 per pair, below one in 10^20 across a
/// billion rows), while re-reading both rows in hash order would cost more than the hashing.
#[derive(Default)]
pub(crate) struct Fingerprint {
    a: u64,
    b: u64,
}

impl Fingerprint {
    pub(crate) fn finish128(&self) -> u128 {
        (u128::from(avalanche(self.a)) << 64)
            | u128::from(avalanche(self.b ^ 0x9e37_79b9_7f4a_7c15))
    }
}

/// A multiset of 64-bit hashes as a 128-bit, order-free sum: each hash adds itself to one half
/// and an independently mixed copy of itself to the other, so two different multisets share a
/// sum only when both halves collide.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MultisetPrint {
    low: u64,
    high: u64,
}

impl MultisetPrint {
    pub(crate) fn add(&mut self, hash: u64) {
        self.low = self.low.wrapping_add(hash);
        self.high = self
            .high
            .wrapping_add(avalanche(hash ^ 0x9e37_79b9_7f4a_7c15));
    }

    pub(crate) fn finish128(&self) -> u128 {
        (u128::from(self.high) << 64) | u128::from(self.low)
    }
}

/// Sorts fingerprints whose high bits are evenly spread (hashes): first into buckets by their
/// top bits, then each bucket on its own, so each sort works on memory that fits in the
/// processor's cache, which a million-row list does not. (Measured together with the move to
/// 64-bit prints, `bag`'s count of shared rows went from about 15 to 13 ms at 100,000 rows;
/// the buckets alone were not measured apart.)
pub(crate) fn sort_prints(prints: &mut Vec<u64>) {
    const SMALL: usize = 1 << 14;
    if prints.len() < SMALL {
        prints.sort_unstable();
        return;
    }
    // About a thousand prints a bucket.
    let bits = (prints.len() / 1024).max(2).ilog2().min(16);
    let shift = 64 - bits;
    let bucket = |print: u64| (print >> shift) as usize;
    let mut starts = vec![0usize; (1 << bits) + 1];
    for &print in prints.iter() {
        starts[bucket(print) + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut next = starts.clone();
    let mut sorted = vec![0u64; prints.len()];
    for &print in prints.iter() {
        let slot = &mut next[bucket(print)];
        sorted[*slot] = print;
        *slot += 1;
    }
    for window in starts.windows(2) {
        sorted[window[0]..window[1]].sort_unstable();
    }
    *prints = sorted;
}

/// A final mix so that every input bit reaches every output bit.
pub(crate) fn avalanche(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl Hasher for Fingerprint {
    fn finish(&self) -> u64 {
        self.finish128() as u64
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word) ^ ((chunk.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i) | 0x100);
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i) | 0x1_0000_0000);
    }

    fn write_u64(&mut self, i: u64) {
        self.a = (self.a.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        self.b = (self.b ^ i)
            .wrapping_mul(0x9fb2_1c65_1e98_df25)
            .rotate_left(29)
            .wrapping_add(0x2545_f491_4f6c_dd1d);
    }
}

/// `HashMap`/`HashSet` with [`Fx`]: the default SipHash costs more than the comparison itself.
pub(crate) type FxBuild = std::hash::BuildHasherDefault<Fx>;
