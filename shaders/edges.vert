#version 330 core
// One instance per combine: a line from the element read (row above) to the element written.
layout(location = 0) in vec4 i_pos;
layout(location = 1) in vec4 i_color;
uniform vec2 u_scale;
uniform vec2 u_offset;
out vec4 v_color;
void main() {
  vec2 p = gl_VertexID == 0 ? i_pos.xy : i_pos.zw;
  gl_Position = vec4(p * u_scale + u_offset, 0.0, 1.0);
  v_color = i_color;
}
