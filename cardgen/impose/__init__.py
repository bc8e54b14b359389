"""impose"""
