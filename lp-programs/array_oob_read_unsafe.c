// expect: unsafe
// why: a[5] is out of range for int a[3], so the read is arbitrary and can be 9
void main() {
  int a[3] = {0, 0, 0};
  if (a[5] == 9)
    ERROR: ;
}
