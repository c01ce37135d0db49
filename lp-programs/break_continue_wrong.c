// expect: unsafe
// why: the break at i = 8 leaves s = 12; the claim s == 20 ignores it
void main() {
  int i, s;
  s = 0;
  for (i = 0; i < 10; i++) {
    if (i % 2 == 1)
      continue;
    if (i == 8)
      break;
    s += i;
  }
  assert(s == 20);
}
