package jsonpos
