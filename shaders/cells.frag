#version 330 core
in vec4 v_color;
in vec2 v_uv;
in vec2 v_px;
out vec4 o_color;
void main() {
  // A one-pixel darker rim when the cell is large enough to show it.
  vec2 d = min(v_uv, 1.0 - v_uv) * v_px;
  float rim = (v_px.x >= 6.0 && min(d.x, d.y) < 1.0) ? 0.7 : 1.0;
  o_color = vec4(v_color.rgb * rim, v_color.a);
}
