// expect: safe
// why: x grows by 2 while i < 5*10^7 and by 1 after, so x = 1.5*10^8 when i reaches 10^8
void reach_error() {}
int main() {
  unsigned i = 0, x = 0;
  while (i < 100000000u) {
    if (i < 50000000u) {
      x += 2;
    } else {
      x += 1;
    }
    i++;
  }
  if (x != 150000000u) reach_error();
  return 0;
}
