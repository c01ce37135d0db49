// expect: unsafe
// why: the fill loop runs i = 1..5 instead of 0..4: a[0] keeps its initial 0
int a[6];

void main() {
  int i, k;
  for (i = 1; i <= 5; i++)
    a[i] = i;
  for (k = 0; k < 5; k++)
    assert(a[k] > 0);
}
