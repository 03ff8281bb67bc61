;; json-text-scanner.ts's two long loops in WebAssembly: numberListEnd (same grammar, same positions)
;; and base64String's run of base64 characters. The answer is copied to offset 0 followed by a 0 byte,
;; which ends every loop as the text's end does in JavaScript, and 64 more bytes, so that a 64-byte read
;; up to the 0 byte stays in bounds. Digits after a point are read 16 at a time (SIMD), base64 and the
;; search for `]` 64 at a time.
;; Regenerate json-text-wasm.ts after a change: pnpm --filter @infergate/core build:wasm
(module
  (memory (export "memory") 1)
  ;; How many numbers the last successful call read.
  (global $count (export "count") (mut i32) (i32.const 0))

  ;; The position of the first byte from $at that is not one of base64's 64 characters (A-Z a-z 0-9 + /).
  ;; A byte is classed by its two nibbles: $low names the classes of low nibble a byte falls in, $high
  ;; which of those classes make a byte with that high nibble invalid (bit 5: any low nibble, for the
  ;; high nibbles no base64 character has); the two tables meet (AND) only for the other bytes. 64 bytes
  ;; a step, one branch for them all, two table lookups (swizzle) a vector, written out in the loop: a
  ;; function per vector, or 16 bytes a step compared with the five ranges, was slower.
  (func (export "base64End") (param $at i32) (result i32)
    (local $v v128) (local $low v128) (local $high v128) (local $fifteen v128) (local $m i32)
    ;; bits: 0 low 0, 1 low B-F, 2 low A, 3 low 1-9, 4 low C-E, 5 every low nibble
    (local.set $low (v128.const i8x16 0x21 0x28 0x28 0x28 0x28 0x28 0x28 0x28 0x28 0x28 0x24 0x22 0x32 0x32 0x32 0x22))
    ;; high 2: only + and / (low B, F); 3: 0-9; 4 and 6: not @ or `; 5 and 7: up to Z and z
    (local.set $high (v128.const i8x16 0x20 0x20 0x1d 0x06 0x01 0x02 0x01 0x02 0x20 0x20 0x20 0x20 0x20 0x20 0x20 0x20))
    (local.set $fifteen (v128.const i8x16 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15))
    (block $found
      (loop $blocks
        (br_if $found (v128.any_true (v128.or
            (v128.or
              (v128.and
                (i8x16.swizzle (local.get $low) (v128.and (local.tee $v (v128.load (local.get $at))) (local.get $fifteen)))
                (i8x16.swizzle (local.get $high) (i8x16.shr_u (local.get $v) (i32.const 4))))
              (v128.and
                (i8x16.swizzle (local.get $low) (v128.and (local.tee $v (v128.load offset=16 (local.get $at))) (local.get $fifteen)))
                (i8x16.swizzle (local.get $high) (i8x16.shr_u (local.get $v) (i32.const 4)))))
            (v128.or
              (v128.and
                (i8x16.swizzle (local.get $low) (v128.and (local.tee $v (v128.load offset=32 (local.get $at))) (local.get $fifteen)))
                (i8x16.swizzle (local.get $high) (i8x16.shr_u (local.get $v) (i32.const 4))))
              (v128.and
                (i8x16.swizzle (local.get $low) (v128.and (local.tee $v (v128.load offset=48 (local.get $at))) (local.get $fifteen)))
                (i8x16.swizzle (local.get $high) (i8x16.shr_u (local.get $v) (i32.const 4))))))))
        (local.set $at (i32.add (local.get $at) (i32.const 64)))
        (br $blocks)))
    ;; The invalid byte is within these 64: find its 16, then its place.
    (loop $sixteens
      (local.set $m (i8x16.bitmask (i8x16.ne
        (v128.and
          (i8x16.swizzle (local.get $low) (v128.and (local.tee $v (v128.load (local.get $at))) (local.get $fifteen)))
          (i8x16.swizzle (local.get $high) (i8x16.shr_u (local.get $v) (i32.const 4))))
        (v128.const i64x2 0 0))))
      (if (i32.eqz (local.get $m)) (then
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $sixteens))))
    (i32.add (local.get $at) (i32.ctz (local.get $m))))

  ;; From $at (the list's first number) to its `]`: the position after the `]`, or -1 - the position of
  ;; the first byte that breaks the grammar. A list of more than 256 bytes is split at the first `,` past
  ;; its middle and its two halves are read at once, one number of each a step: each number's end
  ;; depends on the last one's, and two such chains keep the processor busy where one left it waiting.
  ;; Anything the halves do not take (a blank, a byte outside the grammar, no `]`), and every shorter
  ;; list, is read by $listAlone, which finds the exact place. Lists with `, ` between their numbers
  ;; (never from vLLM or TEI) cost a little more this way, as the halves stop at the first blank.
  (func (export "listEnd") (param $at i32) (result i32)
    (local $end i32) (local $split i32) (local $n i32)
    (local.set $end (call $closeOrEnd (local.get $at)))
    (if (i32.and
        (i32.eq (i32.load8_u (local.get $end)) (i32.const 93))
        (i32.gt_u (i32.sub (local.get $end) (local.get $at)) (i32.const 256)))
      (then
        (local.set $split (call $commaFrom
          (i32.add (local.get $at) (i32.shr_u (i32.sub (local.get $end) (local.get $at)) (i32.const 1)))
          (local.get $end)))
        (if (i32.lt_u (local.get $split) (local.get $end)) (then
          (local.set $n (call $halves (local.get $at) (local.get $split) (local.get $end)))
          (if (i32.ge_s (local.get $n) (i32.const 0)) (then
            (global.set $count (local.get $n))
            (return (i32.add (local.get $end) (i32.const 1)))))))))
    (call $listAlone (local.get $at)))

  ;; The first `]` or 0 byte (the end of the text) from $at, 64 bytes a step.
  (func $closeOrEnd (param $at i32) (result i32)
    (local $v v128) (local $m i32)
    (block $found
      (loop $blocks
        (br_if $found (v128.any_true (v128.or
          (v128.or
            (v128.or
              (i8x16.eq (local.tee $v (v128.load (local.get $at))) (v128.const i8x16 93 93 93 93 93 93 93 93 93 93 93 93 93 93 93 93))
              (i8x16.eq (local.get $v) (v128.const i64x2 0 0)))
            (v128.or
              (i8x16.eq (local.tee $v (v128.load offset=16 (local.get $at))) (v128.const i8x16 93 93 93 93 93 93 93 93 93 93 93 93 93 93 93 93))
              (i8x16.eq (local.get $v) (v128.const i64x2 0 0))))
          (v128.or
            (v128.or
              (i8x16.eq (local.tee $v (v128.load offset=32 (local.get $at))) (v128.const i8x16 93 93 93 93 93 93 93 93 93 93 93 93 93 93 93 93))
              (i8x16.eq (local.get $v) (v128.const i64x2 0 0)))
            (v128.or
              (i8x16.eq (local.tee $v (v128.load offset=48 (local.get $at))) (v128.const i8x16 93 93 93 93 93 93 93 93 93 93 93 93 93 93 93 93))
              (i8x16.eq (local.get $v) (v128.const i64x2 0 0)))))))
        (local.set $at (i32.add (local.get $at) (i32.const 64)))
        (br $blocks)))
    (loop $sixteens
      (local.set $m (i8x16.bitmask (v128.or
        (i8x16.eq (local.tee $v (v128.load (local.get $at))) (v128.const i8x16 93 93 93 93 93 93 93 93 93 93 93 93 93 93 93 93))
        (i8x16.eq (local.get $v) (v128.const i64x2 0 0)))))
      (if (i32.eqz (local.get $m)) (then
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $sixteens))))
    (i32.add (local.get $at) (i32.ctz (local.get $m))))

  ;; The first `,` from $at before $end, or $end.
  (func $commaFrom (param $at i32) (param $end i32) (result i32)
    (block $found
      (loop $bytes
        (br_if $found (i32.ge_u (local.get $at) (local.get $end)))
        (br_if $found (i32.eq (i32.load8_u (local.get $at)) (i32.const 44)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $bytes)))
    (local.get $at))

  ;; How many numbers run from $at to the `,` at $split and from after it to the `]` at $end, with
  ;; nothing but `,` between them; -1 where anything else is there.
  (func $halves (param $a i32) (param $split i32) (param $end i32) (result i32)
    (local $b i32) (local $n i32) (local $more i32)
    (local.set $b (i32.add (local.get $split) (i32.const 1)))
    (block $oneEnded
      (loop $both
        (local.set $a (call $number (local.get $a)))
        (local.set $b (call $number (local.get $b)))
        (if (i32.lt_s (i32.or (local.get $a) (local.get $b)) (i32.const 0)) (then (return (i32.const -1))))
        (local.set $n (i32.add (local.get $n) (i32.const 2)))
        (br_if $oneEnded (i32.or (i32.eq (local.get $a) (local.get $split)) (i32.eq (local.get $b) (local.get $end))))
        (if (i32.or (i32.ne (i32.load8_u (local.get $a)) (i32.const 44)) (i32.ne (i32.load8_u (local.get $b)) (i32.const 44)))
          (then (return (i32.const -1))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $both)))
    (local.set $more (call $numbersTo (local.get $a) (local.get $split)))
    (if (i32.lt_s (local.get $more) (i32.const 0)) (then (return (i32.const -1))))
    (local.set $n (i32.add (local.get $n) (local.get $more)))
    (local.set $more (call $numbersTo (local.get $b) (local.get $end)))
    (if (i32.lt_s (local.get $more) (i32.const 0)) (then (return (i32.const -1))))
    (i32.add (local.get $n) (local.get $more)))

  ;; From $at, the end of a number, to $stop: how many more `,` and numbers there are, or -1 where
  ;; anything else is there.
  (func $numbersTo (param $at i32) (param $stop i32) (result i32)
    (local $n i32)
    (loop $numbers
      (if (i32.eq (local.get $at) (local.get $stop)) (then (return (local.get $n))))
      (if (i32.ne (i32.load8_u (local.get $at)) (i32.const 44)) (then (return (i32.const -1))))
      (local.set $at (call $number (i32.add (local.get $at) (i32.const 1))))
      (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const -1))))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br $numbers))
    (i32.const -1))

  ;; The end of the number at $at (the position after its last byte), or -1 - the position of the first
  ;; byte that breaks the grammar.
  (func $number (param $at i32) (result i32)
    (local $c i32) (local $m i32)
    ;; A `-` is stepped over without a branch: signs are random in a vector, and with two numbers read at
    ;; once a mispredicted sign cost more than the extra load.
    (local.set $at (i32.add (local.get $at) (i32.eq (i32.load8_u (local.get $at)) (i32.const 45))))
    (local.set $c (i32.load8_u (local.get $at)))
    (if (i32.eq (local.get $c) (i32.const 48))
      (then
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (local.set $c (i32.load8_u (local.get $at))))
      (else
        (if (i32.gt_u (i32.sub (local.get $c) (i32.const 49)) (i32.const 8))
          (then (return (i32.sub (i32.const -1) (local.get $at)))))
        (loop $integer
          (local.set $at (i32.add (local.get $at) (i32.const 1)))
          (local.set $c (i32.load8_u (local.get $at)))
          (br_if $integer (i32.le_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 9))))))
    (if (i32.eq (local.get $c) (i32.const 46)) (then
      (local.set $at (i32.add (local.get $at) (i32.const 1)))
      (if (i32.gt_u (i32.sub (i32.load8_u (local.get $at)) (i32.const 48)) (i32.const 9))
        (then (return (i32.sub (i32.const -1) (local.get $at)))))
      (loop $blocks
        (local.set $m (i8x16.bitmask (i8x16.le_u
          (i8x16.sub (v128.load (local.get $at)) (v128.const i8x16 48 48 48 48 48 48 48 48 48 48 48 48 48 48 48 48))
          (v128.const i8x16 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9))))
        (if (i32.eq (local.get $m) (i32.const 0xffff)) (then
          (local.set $at (i32.add (local.get $at) (i32.const 16)))
          (br $blocks))))
      (local.set $at (i32.add (local.get $at) (i32.ctz (i32.xor (local.get $m) (i32.const 0xffff)))))
      (local.set $c (i32.load8_u (local.get $at)))))
    (if (i32.eq (i32.or (local.get $c) (i32.const 32)) (i32.const 101)) (then
      (local.set $at (i32.add (local.get $at) (i32.const 1)))
      (local.set $c (i32.load8_u (local.get $at)))
      (if (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45))) (then
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (local.set $c (i32.load8_u (local.get $at)))))
      (if (i32.gt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 9))
        (then (return (i32.sub (i32.const -1) (local.get $at)))))
      (loop $exponent
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br_if $exponent (i32.le_u (i32.sub (i32.load8_u (local.get $at)) (i32.const 48)) (i32.const 9))))))
    (local.get $at))

  ;; The list read one number after another, blanks included: the same grammar, and the exact place of
  ;; the first byte that breaks it.
  (func $listAlone (param $at i32) (result i32)
    (local $c i32) (local $n i32)
    (loop $number
      (local.set $at (call $number (local.get $at)))
      (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (local.get $at))))
      (local.set $c (i32.load8_u (local.get $at)))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (block $blanksEnd
        (loop $blanks
          ;; Above 32 no byte is blank: the usual `,` (or next digit) leaves after one compare.
          (br_if $blanksEnd (i32.gt_u (local.get $c) (i32.const 32)))
          (br_if $blanksEnd (i32.eqz (i32.or
            (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 10)))
            (i32.or (i32.eq (local.get $c) (i32.const 13)) (i32.eq (local.get $c) (i32.const 9))))))
          (local.set $at (i32.add (local.get $at) (i32.const 1)))
          (local.set $c (i32.load8_u (local.get $at)))
          (br $blanks)))
      (if (i32.eq (local.get $c) (i32.const 44)) (then
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (local.set $c (i32.load8_u (local.get $at)))
        (block $afterCommaEnd
          (loop $afterComma
            (br_if $afterCommaEnd (i32.gt_u (local.get $c) (i32.const 32)))
            (br_if $afterCommaEnd (i32.eqz (i32.or
              (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 10)))
              (i32.or (i32.eq (local.get $c) (i32.const 13)) (i32.eq (local.get $c) (i32.const 9))))))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))
            (local.set $c (i32.load8_u (local.get $at)))
            (br $afterComma)))
        (br $number)))
      (if (i32.eq (local.get $c) (i32.const 93)) (then
        (global.set $count (local.get $n))
        (return (i32.add (local.get $at) (i32.const 1))))))
    (i32.sub (i32.const -1) (local.get $at))))
