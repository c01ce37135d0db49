// expect: unsafe
// why: x = 15 and y = 0 in every iteration stay in [10, 20] and [-5, 5] and make sx = 180 > 150
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int sx = 0, sy = 0;
  for (int i = 0; i < 12; i++) {
    int x = __VERIFIER_nondet_int();
    if (x < 10 || x > 20) return 0;
    int y = __VERIFIER_nondet_int();
    if (y < -5) return 0;
    if (y > 5) return 0;
    sx = sx + x;
    sy = sy + y;
  }
  if (sx > 150 && sy > -40) reach_error();
  return 0;
}
