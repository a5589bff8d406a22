#version 330 core
// One instance per cell of the reduction tree: a quad that moves from (pos.xy) to (pos.zw) as u_t goes
// 0 -> 1 (still cells have both the same). World units: x = element index, y = row (step).
layout(location = 0) in vec4 i_pos;
layout(location = 1) in vec4 i_color;
layout(location = 2) in vec2 i_size;
uniform vec2 u_scale;
uniform vec2 u_offset;
uniform float u_t;
out vec4 v_color;
out vec2 v_uv;
out vec2 v_px;
uniform vec2 u_px_per_unit;
void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));  // triangle strip
  vec2 center = mix(i_pos.xy, i_pos.zw, smoothstep(0.0, 1.0, u_t));
  vec2 p = center + (corner - 0.5) * i_size;
  gl_Position = vec4(p * u_scale + u_offset, 0.0, 1.0);
  v_color = i_color;
  v_uv = corner;
  v_px = i_size * u_px_per_unit;  // the quad's size in pixels
}
