//! [`Lanes`]: one `u32` per band side by side (lanes 0-2; lane 3 is spare), as one SSE2
//! register on x86-64 (SSE2 is part of every x86-64) and as an array elsewhere. Only
//! the operations the stall rules need.

/// Four `u32` lanes; the solver uses lanes 0-2 (one per band).
#[derive(Clone, Copy)]
pub(super) struct Lanes(imp::Repr);

#[cfg(target_arch = "x86_64")]
mod imp {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi32, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi32,
        _mm_cvtsi128_si32, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi32,
        _mm_setr_epi32, _mm_setzero_si128, _mm_shuffle_epi32, _mm_slli_epi32, _mm_srli_epi32,
        _mm_storeu_si128, _mm_sub_epi32, _mm_unpackhi_epi32, _mm_unpackhi_epi64,
        _mm_unpacklo_epi32, _mm_unpacklo_epi64, _mm_xor_si128,
    };

    use super::Lanes;

    pub(super) type Repr = __m128i;

    // SAFETY (every block below): these are SSE2 intrinsics, which every x86-64 CPU
    // has; the memory accesses are a store into a local array of the same size and,
    // in `digits`, 4-word loads at words 0, 4, 9, 13, 18 and 22 of a 27-word array.
    impl Lanes {
        #[inline(always)]
        pub(in super::super) fn new(v: [u32; 4]) -> Lanes {
            Lanes(unsafe { _mm_setr_epi32(v[0] as i32, v[1] as i32, v[2] as i32, v[3] as i32) })
        }

        /// The nine digits of band-major words (`words[9 * band + digit]`), one
        /// `Lanes` per digit with `spare` in lane 3: three 4-word loads per four
        /// digits, transposed with unpacks.
        #[inline(always)]
        pub(in super::super) fn digits(words: &[u32; 27], spare: u32) -> [Lanes; 9] {
            let mut out = [Lanes::zero(); 9];
            unsafe {
                let s = _mm_set1_epi32(spare as i32);
                for first in [0, 4] {
                    let p = words.as_ptr().add(first);
                    let r0 = _mm_loadu_si128(p.cast());
                    let r1 = _mm_loadu_si128(p.add(9).cast());
                    let r2 = _mm_loadu_si128(p.add(18).cast());
                    let (lo01, hi01) = (_mm_unpacklo_epi32(r0, r1), _mm_unpackhi_epi32(r0, r1));
                    let (lo2s, hi2s) = (_mm_unpacklo_epi32(r2, s), _mm_unpackhi_epi32(r2, s));
                    out[first] = Lanes(_mm_unpacklo_epi64(lo01, lo2s));
                    out[first + 1] = Lanes(_mm_unpackhi_epi64(lo01, lo2s));
                    out[first + 2] = Lanes(_mm_unpacklo_epi64(hi01, hi2s));
                    out[first + 3] = Lanes(_mm_unpackhi_epi64(hi01, hi2s));
                }
            }
            out[8] = Lanes::new([words[8], words[17], words[26], spare]);
            out
        }

        #[inline(always)]
        pub(in super::super) fn splat(v: u32) -> Lanes {
            Lanes(unsafe { _mm_set1_epi32(v as i32) })
        }

        #[inline(always)]
        pub(in super::super) fn zero() -> Lanes {
            Lanes(unsafe { _mm_setzero_si128() })
        }

        #[inline(always)]
        pub(in super::super) fn to_array(self) -> [u32; 4] {
            let mut out = [0u32; 4];
            unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), self.0) };
            out
        }

        /// Lane 0.
        #[inline(always)]
        pub(in super::super) fn first(self) -> u32 {
            unsafe { _mm_cvtsi128_si32(self.0) as u32 }
        }

        /// `self & other`.
        #[inline(always)]
        pub(in super::super) fn and(self, other: Lanes) -> Lanes {
            Lanes(unsafe { _mm_and_si128(self.0, other.0) })
        }

        /// `self | other`.
        #[inline(always)]
        pub(in super::super) fn or(self, other: Lanes) -> Lanes {
            Lanes(unsafe { _mm_or_si128(self.0, other.0) })
        }

        /// `self ^ other`.
        #[inline(always)]
        pub(in super::super) fn xor(self, other: Lanes) -> Lanes {
            Lanes(unsafe { _mm_xor_si128(self.0, other.0) })
        }

        /// `self & !other`.
        #[inline(always)]
        pub(in super::super) fn and_not(self, other: Lanes) -> Lanes {
            Lanes(unsafe { _mm_andnot_si128(other.0, self.0) })
        }

        /// `self - other` (wrapping).
        #[inline(always)]
        pub(in super::super) fn sub(self, other: Lanes) -> Lanes {
            Lanes(unsafe { _mm_sub_epi32(self.0, other.0) })
        }

        /// `self + other` (wrapping).
        #[inline(always)]
        pub(in super::super) fn add(self, other: Lanes) -> Lanes {
            Lanes(unsafe { _mm_add_epi32(self.0, other.0) })
        }

        #[inline(always)]
        pub(in super::super) fn shl<const N: i32>(self) -> Lanes {
            Lanes(unsafe { _mm_slli_epi32::<N>(self.0) })
        }

        #[inline(always)]
        pub(in super::super) fn shr<const N: i32>(self) -> Lanes {
            Lanes(unsafe { _mm_srli_epi32::<N>(self.0) })
        }

        /// Lane `b` (of 0-2) takes lane `b + 1` (mod 3); lane 3 keeps its own.
        #[inline(always)]
        pub(in super::super) fn rotate1(self) -> Lanes {
            Lanes(unsafe { _mm_shuffle_epi32::<0b11_00_10_01>(self.0) })
        }

        /// Lane `b` (of 0-2) takes lane `b + 2` (mod 3); lane 3 keeps its own.
        #[inline(always)]
        pub(in super::super) fn rotate2(self) -> Lanes {
            Lanes(unsafe { _mm_shuffle_epi32::<0b11_01_00_10>(self.0) })
        }

        /// Whether lanes 0-2 hold any bit.
        #[inline(always)]
        pub(in super::super) fn any(self) -> bool {
            let zero = unsafe { _mm_movemask_epi8(_mm_cmpeq_epi32(self.0, _mm_setzero_si128())) };
            zero & 0x0fff != 0x0fff
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod imp {
    use super::Lanes;

    pub(super) type Repr = [u32; 4];

    impl Lanes {
        #[inline(always)]
        pub(in super::super) fn new(v: [u32; 4]) -> Lanes {
            Lanes(v)
        }

        #[inline(always)]
        pub(in super::super) fn splat(v: u32) -> Lanes {
            Lanes([v; 4])
        }

        #[inline(always)]
        pub(in super::super) fn digits(words: &[u32; 27], spare: u32) -> [Lanes; 9] {
            std::array::from_fn(|d| Lanes([words[d], words[9 + d], words[18 + d], spare]))
        }

        #[inline(always)]
        pub(in super::super) fn zero() -> Lanes {
            Lanes([0; 4])
        }

        #[inline(always)]
        pub(in super::super) fn to_array(self) -> [u32; 4] {
            self.0
        }

        #[inline(always)]
        pub(in super::super) fn first(self) -> u32 {
            self.0[0]
        }

        #[inline(always)]
        fn zip(self, other: Lanes, f: impl Fn(u32, u32) -> u32) -> Lanes {
            Lanes(std::array::from_fn(|k| f(self.0[k], other.0[k])))
        }

        #[inline(always)]
        pub(in super::super) fn and(self, other: Lanes) -> Lanes {
            self.zip(other, |a, b| a & b)
        }

        #[inline(always)]
        pub(in super::super) fn or(self, other: Lanes) -> Lanes {
            self.zip(other, |a, b| a | b)
        }

        #[inline(always)]
        pub(in super::super) fn xor(self, other: Lanes) -> Lanes {
            self.zip(other, |a, b| a ^ b)
        }

        #[inline(always)]
        pub(in super::super) fn and_not(self, other: Lanes) -> Lanes {
            self.zip(other, |a, b| a & !b)
        }

        #[inline(always)]
        pub(in super::super) fn sub(self, other: Lanes) -> Lanes {
            self.zip(other, u32::wrapping_sub)
        }

        #[inline(always)]
        pub(in super::super) fn add(self, other: Lanes) -> Lanes {
            self.zip(other, u32::wrapping_add)
        }

        #[inline(always)]
        pub(in super::super) fn shl<const N: i32>(self) -> Lanes {
            Lanes(self.0.map(|v| v << N))
        }

        #[inline(always)]
        pub(in super::super) fn shr<const N: i32>(self) -> Lanes {
            Lanes(self.0.map(|v| v >> N))
        }

        #[inline(always)]
        pub(in super::super) fn rotate1(self) -> Lanes {
            let v = self.0;
            Lanes([v[1], v[2], v[0], v[3]])
        }

        #[inline(always)]
        pub(in super::super) fn rotate2(self) -> Lanes {
            let v = self.0;
            Lanes([v[2], v[0], v[1], v[3]])
        }

        #[inline(always)]
        pub(in super::super) fn any(self) -> bool {
            (self.0[0] | self.0[1] | self.0[2]) != 0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_transposed_from_band_major_words() {
        let words: [u32; 27] = std::array::from_fn(|i| 100 + i as u32);
        let digits = Lanes::digits(&words, 7);
        for (d, lanes) in digits.iter().enumerate() {
            let d = d as u32;
            assert_eq!(lanes.to_array(), [100 + d, 109 + d, 118 + d, 7]);
        }
    }

    #[test]
    fn lane_operations() {
        let a = Lanes::new([0b1100, 0b1010, 0b0110, 7]);
        let b = Lanes::new([0b1010, 0b0110, 0b1100, 1]);
        assert_eq!(a.and(b).to_array(), [0b1000, 0b0010, 0b0100, 1]);
        assert_eq!(a.or(b).to_array(), [0b1110, 0b1110, 0b1110, 7]);
        assert_eq!(a.and_not(b).to_array(), [0b0100, 0b1000, 0b0010, 6]);
        assert_eq!(a.xor(b).to_array(), [0b0110, 0b1100, 0b1010, 6]);
        assert_eq!(a.sub(b).to_array(), [2, 4, u32::MAX - 5, 6]);
        assert_eq!(a.add(b).to_array(), [22, 16, 18, 8]);
        assert_eq!(a.shl::<2>().to_array(), [0b110000, 0b101000, 0b011000, 28]);
        assert_eq!(a.shr::<1>().to_array(), [0b110, 0b101, 0b011, 3]);
        assert_eq!(a.rotate1().to_array(), [0b1010, 0b0110, 0b1100, 7]);
        assert_eq!(a.rotate2().to_array(), [0b0110, 0b1100, 0b1010, 7]);
        assert!(a.any());
        assert!(!Lanes::new([0, 0, 0, 5]).any());
        assert!(Lanes::new([0, 0, 1, 0]).any());
        assert_eq!(Lanes::splat(3).to_array(), [3; 4]);
        assert_eq!(a.first(), 0b1100);
        assert_eq!(Lanes::zero().to_array(), [0; 4]);
    }
}
