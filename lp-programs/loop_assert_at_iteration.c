// expect: unsafe
// why: the global x starts at 0 and reaches 21 in the 7th iteration
int x;

void main() {
  int i;
  for (i = 0; i < 10; i++) {
    x += 3;
    assert(x != 21);
  }
}
