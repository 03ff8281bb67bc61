;; The number-list check of json-text-scanner.ts (numberListEnd), as WebAssembly: the same grammar, the
;; same positions. The answer's bytes are copied to memory offset 0 with a 0 byte after them, which ends
;; every loop as the end of the text does in JavaScript. Digits after a point are read eight at a time
;; by an unaligned 64-bit load while eight bytes remain before `$last` (the length - 8).
;; Regenerate number-list-wasm.ts after a change: node packages/core/scripts/build-number-list-wasm.mjs
(module
  (memory (export "memory") 1)
  ;; How many numbers the last successful call read.
  (global $count (export "count") (mut i32) (i32.const 0))

  (func $isDigit (param $c i32) (result i32)
    (i32.le_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 9)))

  (func $isBlank (param $c i32) (result i32)
    (i32.or
      (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 10)))
      (i32.or (i32.eq (local.get $c) (i32.const 13)) (i32.eq (local.get $c) (i32.const 9)))))

  ;; From $at (the list's first number) to its `]`: the position after the `]`, or -1 - the position of
  ;; the first byte that breaks the grammar.
  (func (export "listEnd") (param $at i32) (param $last i32) (result i32)
    (local $c i32) (local $n i32) (local $w i64) (local $m i64)
    (loop $number
      (local.set $c (i32.load8_u (local.get $at)))
      (if (i32.eq (local.get $c) (i32.const 45)) (then
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (local.set $c (i32.load8_u (local.get $at)))))
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
            (br_if $integer (call $isDigit (local.get $c))))))
      (if (i32.eq (local.get $c) (i32.const 46)) (then
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (local.set $c (i32.load8_u (local.get $at)))
        (if (i32.eqz (call $isDigit (local.get $c)))
          (then (return (i32.sub (i32.const -1) (local.get $at)))))
        ;; Eight bytes are digits when each has the high nibble 3 and a low nibble of 9 or less; the
        ;; lowest byte that is not marks where the digits end.
        (block $wordsEnd
          (loop $words
            (br_if $wordsEnd (i32.gt_s (local.get $at) (local.get $last)))
            (local.set $w (i64.load (local.get $at)))
            (local.set $m
              (i64.or
                (i64.xor (i64.and (local.get $w) (i64.const 0xf0f0f0f0f0f0f0f0)) (i64.const 0x3030303030303030))
                (i64.and
                  (i64.add (i64.and (local.get $w) (i64.const 0x0f0f0f0f0f0f0f0f)) (i64.const 0x0606060606060606))
                  (i64.const 0x1010101010101010))))
            (if (i64.ne (local.get $m) (i64.const 0)) (then
              (local.set $at (i32.add (local.get $at) (i32.wrap_i64 (i64.shr_u (i64.ctz (local.get $m)) (i64.const 3)))))
              (br $wordsEnd)))
            (local.set $at (i32.add (local.get $at) (i32.const 8)))
            (br $words)))
        (local.set $c (i32.load8_u (local.get $at)))
        (block $digitsEnd
          (loop $digits
            (br_if $digitsEnd (i32.eqz (call $isDigit (local.get $c))))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))
            (local.set $c (i32.load8_u (local.get $at)))
            (br $digits)))))
      ;; e or E (E | 32 is e)
      (if (i32.eq (i32.or (local.get $c) (i32.const 32)) (i32.const 101)) (then
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (local.set $c (i32.load8_u (local.get $at)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45))) (then
          (local.set $at (i32.add (local.get $at) (i32.const 1)))
          (local.set $c (i32.load8_u (local.get $at)))))
        (if (i32.eqz (call $isDigit (local.get $c)))
          (then (return (i32.sub (i32.const -1) (local.get $at)))))
        (loop $exponent
          (local.set $at (i32.add (local.get $at) (i32.const 1)))
          (local.set $c (i32.load8_u (local.get $at)))
          (br_if $exponent (call $isDigit (local.get $c))))))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (block $blanksEnd
        (loop $blanks
          (br_if $blanksEnd (i32.eqz (call $isBlank (local.get $c))))
          (local.set $at (i32.add (local.get $at) (i32.const 1)))
          (local.set $c (i32.load8_u (local.get $at)))
          (br $blanks)))
      (if (i32.eq (local.get $c) (i32.const 44)) (then
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (local.set $c (i32.load8_u (local.get $at)))
        (block $afterCommaEnd
          (loop $afterComma
            (br_if $afterCommaEnd (i32.eqz (call $isBlank (local.get $c))))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))
            (local.set $c (i32.load8_u (local.get $at)))
            (br $afterComma)))
        (br $number)))
      (if (i32.eq (local.get $c) (i32.const 93)) (then
        (global.set $count (local.get $n))
        (return (i32.add (local.get $at) (i32.const 1))))))
    (i32.sub (i32.const -1) (local.get $at))))
