// expect: safe
// why: down(6) runs 7 frames with n = 6..0; the 6 with n > 0 each add 1 to the global count
int count;
int deepest = 100;

void down(int n) {
  if (n < deepest)
    deepest = n;
  if (n > 0) {
    count = count + 1;
    down(n - 1);
  }
}

void main() {
  down(6);
  assert(count == 6);
  assert(deepest == 0);
}
